#!/usr/bin/env python3
"""mc_spawn_jsonl.py: torch.multiprocessing.spawn (nprocs=3, gloo, env MASTER_ADDR/PORT set here) training a small
MLP with DDP. Logging: one JSON object per line on stderr, {"ts": ..., "level": ..., "rank": N, "logger": ..., "msg":
...} built by a logging.Formatter format string with a rank filter. Data: one .npy file pair per source file in
data/ (list in data/files.txt); a custom FileShardSampler gives each rank whole files (file i -> rank i % world),
as a site "locality" sampler does, so per-rank sample counts follow the file sizes. Per epoch: DDP training, then an
epoch-end all_reduce of the summed loss for the metrics line."""
import json, logging, os, sys, time
import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, Sampler

FMT = '{"ts": "%(asctime)s.%(msecs)03d", "level": "%(levelname)s", "rank": %(rank)d, "logger": "%(name)s", "msg": "%(message)s"}'


class RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, r):
        r.rank = self.rank
        return True


class Files(Dataset):
    def __init__(self, names):
        self.x, self.y, self.file_of = [], [], []
        for k, n in enumerate(names):
            x = np.load(f"data/{n}.x.npy"); y = np.load(f"data/{n}.y.npy")
            self.x.append(x); self.y.append(y); self.file_of += [k] * len(y)
        self.x = np.concatenate(self.x).astype(np.float32); self.y = np.concatenate(self.y).astype(np.int64)
        self.file_of = np.array(self.file_of)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


class FileShardSampler(Sampler):
    """whole files per rank (locality): file k goes to rank k % world; no padding to equal length"""
    def __init__(self, ds, rank, world, seed=0):
        self.idx = np.nonzero(ds.file_of % world == rank)[0]
        self.seed, self.epoch = seed, 0

    def set_epoch(self, e):
        self.epoch = e

    def __iter__(self):
        g = np.random.default_rng(self.seed + self.epoch)
        return iter(g.permutation(self.idx).tolist())

    def __len__(self):
        return len(self.idx)


def worker(rank, world, epochs):
    log = logging.getLogger("train")
    h = logging.StreamHandler(sys.stderr)
    h.setFormatter(logging.Formatter(FMT, datefmt="%Y-%m-%dT%H:%M:%S"))
    h.addFilter(RankFilter(rank))
    log.addHandler(h); log.setLevel(logging.INFO); log.propagate = False
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=__import__("datetime").timedelta(seconds=40))
    log.info("process group ready: backend=gloo world_size=%d pid=%d", world, os.getpid())
    names = open("data/files.txt").read().split()
    ds = Files(names)
    samp = FileShardSampler(ds, rank, world)
    dl = DataLoader(ds, batch_size=32, sampler=samp)
    log.info("FileShardSampler: %d samples from files %s -> %d batches/epoch", len(samp),
             [n for k, n in enumerate(names) if k % world == rank], len(dl))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 5)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for ep in range(epochs):
        samp.set_epoch(ep)
        tot, n = torch.zeros(1), 0
        for b, (xb, yb) in enumerate(dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.detach(); n += 1
            if b % 5 == 0:
                log.info("epoch %d batch %d loss %.4f", ep, b, loss.item())
            time.sleep(0.05)
        log.info("epoch %d: local pass done after %d batches, reducing epoch loss", ep, n)
        dist.all_reduce(tot)
        log.info("epoch %d mean loss %.4f", ep, tot.item() / (n * world))
    dist.barrier()
    log.info("training finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    mp.spawn(worker, args=(world, 3), nprocs=world, join=True)
