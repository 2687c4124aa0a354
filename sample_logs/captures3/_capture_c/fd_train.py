"""mp.spawn trainer whose samples are dicts of many small per-column tensors, read with
DataLoader worker processes (default sharing strategy: file_descriptor). Run under a low
`ulimit -n` (set by the shell that launches it); nothing else is injected."""
import argparse
import logging
import os
import sys
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

logger = logging.getLogger("train")
COLUMNS = [f"feat_{j:02d}" for j in range(48)]


class ColumnTable(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, len(COLUMNS), generator=g)
        self.y = torch.randint(0, 4, (n,), generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        row = {c: self.x[i, j:j + 1].clone() for j, c in enumerate(COLUMNS)}
        return row, self.y[i]


def run(rank, args):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s [rank {rank}] %(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    dist.init_process_group("gloo", rank=rank, world_size=args.world,
                            timeout=timedelta(seconds=60))
    import resource
    logger.info("RLIMIT_NOFILE %s, sharing strategy %s", resource.getrlimit(resource.RLIMIT_NOFILE),
                mp.get_sharing_strategy())
    ds = ColumnTable(4096)
    sampler = DistributedSampler(ds, num_replicas=args.world, rank=rank)
    dl = DataLoader(ds, batch_size=16, sampler=sampler, num_workers=args.num_workers,
                    prefetch_factor=4)
    model = DDP(nn.Sequential(nn.Linear(len(COLUMNS), 32), nn.ReLU(), nn.Linear(32, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (row, y) in enumerate(dl, 1):
        x = torch.cat([row[c] for c in COLUMNS], dim=1)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            logger.info("step %d loss %.4f", step, loss.item())
        if step == args.steps:
            break
    dist.barrier()
    logger.info("done")
    dist.destroy_process_group()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--num-workers", type=int, default=2)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--port", type=int, default=29716)
    args = p.parse_args()
    print(f"launching {args.world} processes with torch.multiprocessing.spawn", flush=True)
    mp.spawn(run, args=(args,), nprocs=args.world, join=True)
    print("all processes finished", flush=True)
