"""torchrun worker that keeps its metrics only in a CSV file per rank (metrics/rank<R>.csv: one row per logged
step / eval) and writes nothing to stdout; Python warnings and the closing summary go to stderr."""
import csv, os, sys, time, warnings
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    os.makedirs("metrics", exist_ok=True)
    f = open(f"metrics/rank{rank}.csv", "w", newline="")
    w = csv.writer(f)
    w.writerow(["time", "epoch", "step", "phase", "loss", "lr", "grad_norm", "samples_per_s"])
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    model = DDP(net, find_unused_parameters=True)  # flag kept from the multitask variant
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=3 * 60)
    g = torch.Generator().manual_seed(rank)
    wt = torch.randn(20, 1, generator=torch.Generator().manual_seed(5))
    xv = torch.randn(512, 20, generator=g)
    yv = xv @ wt
    sched.step()  # warm-up bookkeeping done once before the loop (order kept from the old trainer)
    step = 0
    for epoch in range(3):
        for i in range(60):
            t0 = time.perf_counter()
            x = torch.randn(64, 20, generator=g)
            y = x @ wt + 0.05 * torch.randn(64, 1, generator=g)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if step < 3 * 60 - 1:
                sched.step()
            step += 1
            if step % 10 == 0:
                w.writerow([f"{time.time():.3f}", epoch, step, "train", f"{loss.item():.5f}",
                            f"{sched.get_last_lr()[0]:.6g}", f"{gn.item():.4f}",
                            f"{64 / (time.perf_counter() - t0):.0f}"])
                f.flush()
            time.sleep(0.03)
        with torch.no_grad():
            vl = nn.functional.mse_loss(model.module(xv), yv)
        t = torch.tensor([vl.item()])
        dist.all_reduce(t)
        w.writerow([f"{time.time():.3f}", epoch, step, "val", f"{t.item() / dist.get_world_size():.5f}", "", "", ""])
        f.flush()
    f.close()
    print(f"rank {rank}: training complete, {step} steps, final val_loss {t.item() / dist.get_world_size():.5f}",
          file=sys.stderr)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
