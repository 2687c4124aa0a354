"""DeepSpeed ZeRO training of a small MLP classifier on per-rank shards (CPU accelerator, gloo), with the team's own
host-memory guard (RSS growth budget per rank, checked after loading and every --guard-every steps)."""
import argparse, os, time
import numpy as np
import psutil
import torch, torch.nn as nn
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=200)
p.add_argument("--rss-budget-mb", type=int, default=256)
p.add_argument("--guard-every", type=int, default=20)
p.add_argument("--local_rank", type=int, default=-1)
p = deepspeed.add_config_arguments(p)
args = p.parse_args()

proc = psutil.Process()
rss0 = proc.memory_info().rss


def memory_guard(rank, where):
    grown = (proc.memory_info().rss - rss0) / 2**20
    if grown > args.rss_budget_mb:
        raise MemoryError(f"host memory guard: rank {rank} RSS grew by {grown:.0f} MiB {where} "
                          f"(budget {args.rss_budget_mb} MiB per rank); refusing to continue")


deepspeed.init_distributed(dist_backend="gloo")
rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
cache = x.repeat(1, 2)   # decoded + jittered copy kept for the two-view loss
print(f"[rank {rank}] shard_{rank:02d}: {len(y)} rows", flush=True)
memory_guard(rank, "after loading its shard")
model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4))
engine, opt, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
lossf = nn.CrossEntropyLoss()
bs = engine.train_micro_batch_size_per_gpu()
g = torch.Generator().manual_seed(rank)
for step in range(1, args.steps + 1):
    idx = torch.randint(0, len(y), (bs,), generator=g)
    loss = lossf(engine(x[idx]), y[idx])
    engine.backward(loss)
    engine.step()
    if step % 20 == 0 and rank == 0:
        print(f"step {step}/{args.steps} loss {loss.item():.4f}", flush=True)
    if step % args.guard_every == 0:
        memory_guard(rank, f"at step {step}")
    time.sleep(0.01)
print(f"[rank {rank}] finished {args.steps} steps", flush=True)
