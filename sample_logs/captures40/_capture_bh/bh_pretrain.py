# quick embedding pre-training script: 3 workers via torch.multiprocessing.spawn, DDP over gloo
import datetime, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
import torch.multiprocessing as mp

WORLD = int(os.environ.get("NPROCS", "3"))
STEPS = int(os.environ.get("STEPS", "150"))
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
print(f"pretrain: world={WORLD} steps={STEPS} torch={torch.__version__}", flush=True)


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=60))
    print(f"[worker {rank}] process group up (pid {os.getpid()})", flush=True)
    d = np.load(f"data/shard_{rank:02d}.npz")
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(x.shape[1], 32), nn.Tanh(), nn.Linear(32, 4)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(1, STEPS + 1):
        idx = torch.randint(0, len(y), (64,))
        loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 25 == 0:
            print(f"[worker {rank}] step {step} loss {loss.item():.4f}", flush=True)
    dist.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), "pretrained.pt")
        print("[worker 0] wrote pretrained.pt", flush=True)
    dist.destroy_process_group()


mp.spawn(worker, args=(WORLD,), nprocs=WORLD)
print("pretrain: all workers finished", flush=True)
