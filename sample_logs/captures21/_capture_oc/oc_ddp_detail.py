"""Plain DDP regression trainer (gloo) run under torchrun; logging to stdout `[%(asctime)s] rank R: msg`."""
import logging, os, sys, time
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format=f"[%(asctime)s] rank {rank}: %(message)s")
log = logging.getLogger()


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=120))
    log.info("process group up (world %d), TORCH_DISTRIBUTED_DEBUG=%s", dist.get_world_size(),
             os.environ.get("TORCH_DISTRIBUTED_DEBUG", "unset"))
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(24, 96), nn.SiLU(), nn.Linear(96, 96), nn.SiLU(), nn.Linear(96, 1))
    log.info("wrapping model in DDP (%d parameters)", sum(p.numel() for p in net.parameters()))
    model = DDP(net)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 301):
        x = torch.randn(64, 24, generator=g)
        loss = nn.functional.mse_loss(model(x), x[:, :3].sum(1, keepdim=True))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.01)
    log.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
