"""DDP (gloo, find_unused_parameters=False) regression model with a main head and an auxiliary head; the auxiliary
loss is only added when the batch carries aux targets (the site's 'aux_every' schedule)."""
import os, sys, time, logging
import torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("twohead")

class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        s.head = nn.Linear(32, 1)
        s.aux = nn.Linear(32, 4)
    def forward(s, x, with_aux):
        h = s.body(x)
        return s.head(h), (s.aux(h) if with_aux else None)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    rank, ws = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(Net(), find_unused_parameters=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(100 + rank)
    # per-rank aux schedule from the data shard header (rank 1's shard was exported with aux targets only every 4th batch)
    aux_every = 4 if rank == 1 else 1
    log.info("rank %d/%d ready, shard aux_every=%d, find_unused_parameters=False", rank, ws, aux_every)
    for step in range(1, 31):
        x = torch.randn(32, 16, generator=g)
        y = x.sum(1, keepdim=True)
        with_aux = step % aux_every == 0 or aux_every == 1
        out, aux = model(x, with_aux)
        loss = nn.functional.mse_loss(out, y)
        if aux is not None:
            loss = loss + 0.1 * aux.pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0 or step < 3:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    dist.barrier()
    log.info("rank %d done", rank)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
