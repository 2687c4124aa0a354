"""Data-parallel trainer (gradients averaged by hand with one all_reduce per parameter, the lab's pre-DDP code path)
with per-epoch validation and early stopping; env:// rendezvous. Logs with Python logging to stdout
(`%(asctime)s [rank R] LEVEL msg`). At the end every rank all_gathers its final metrics for the run summary."""
import logging, os, sys, time
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format=f"%(asctime)s [rank {rank}] %(levelname)s %(message)s")
log = logging.getLogger()
PATIENCE = int(os.environ.get("ES_PATIENCE", "3"))


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    log.info("init done: world %d, TORCH_DISTRIBUTED_DEBUG=%s, early-stop patience %d", world,
             os.environ.get("TORCH_DISTRIBUTED_DEBUG"), PATIENCE)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    wt = torch.randn(16, 1, generator=torch.Generator().manual_seed(9))
    # each rank validates on its own shard of the held-out set; rank-local noise level differs by shard
    xv = torch.randn(256, 16, generator=g)
    yv = xv @ wt + (0.2 + rank * 0.8) * torch.randn(256, 1, generator=g)
    best, bad = float("inf"), 0
    for epoch in range(12):
        for i in range(30):
            x = torch.randn(32, 16, generator=g)
            y = x @ wt + 0.1 * torch.randn(32, 1, generator=g)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad)
                p.grad /= world
            opt.step()
            time.sleep(0.02)
        with torch.no_grad():
            vl = nn.functional.mse_loss(model(xv), yv).item()
        if vl < best - 1e-3:
            best, bad = vl, 0
        else:
            bad += 1
        log.info("epoch %d train_loss %.4f val_loss %.4f best %.4f patience %d/%d", epoch, loss.item(), vl, best, bad,
                 PATIENCE)
        if bad >= PATIENCE:
            log.info("early stopping at epoch %d (no val improvement for %d epochs)", epoch, bad)
            break
    summary = [None] * world
    dist.all_gather_object(summary, {"rank": rank, "epochs": epoch + 1, "best_val": round(best, 4)})
    if rank == 0:
        log.info("run summary: %s", summary)
    dist.destroy_process_group()
    log.info("exit")


if __name__ == "__main__":
    main()
