#!/usr/bin/env python3
"""mc_dl_train.py: torchrun-launched DDP trainer whose Dataset "decodes" synthetic image records in DataLoader
worker processes and keeps an in-worker decode cache (dict, --cache-items entries of one 3x256x256 float32 image,
~0.8 MB each) so that later epochs do not decode again. Logging on stderr:
`[%(asctime)s] {rank R} %(levelname)s %(name)s - %(message)s`."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--records", type=int, default=1200)
p.add_argument("--cache-items", type=int, default=2000)
p.add_argument("--workers", type=int, default=2)
p.add_argument("--epochs", type=int, default=2)
a = p.parse_args()
rank = int(os.environ["RANK"])
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format=f"[%(asctime)s] {{rank {rank}}} %(levelname)s %(name)s - %(message)s")
log = logging.getLogger("dl_train")


class Decoded(Dataset):
    def __init__(self, n, cache_items):
        self.n, self.cache_items, self.cache = n, cache_items, {}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img = self.cache.get(i)
        if img is None:
            g = np.random.default_rng(i)
            img = g.standard_normal((3, 256, 256), dtype=np.float32)  # "decode"
            if len(self.cache) < self.cache_items:
                self.cache[i] = img
        feat = torch.from_numpy(img).mean(dim=(1, 2))  # cheap 3-dim summary for the toy model
        return torch.cat([feat, torch.from_numpy(img[:, ::64, ::64].reshape(-1))]), i % 5


dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=40))
world = dist.get_world_size()
ds = Decoded(a.records, a.cache_items)
dl = DataLoader(ds, batch_size=24, sampler=DistributedSampler(ds, shuffle=True, seed=1), num_workers=a.workers,
                persistent_workers=True, prefetch_factor=4)
log.info("world %d, %d records on this rank, %d DataLoader workers, decode cache up to %d items/worker", world,
         len(dl.sampler), a.workers, a.cache_items)
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(51, 64), nn.ReLU(), nn.Linear(64, 5)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
step = 0
for ep in range(a.epochs):
    dl.sampler.set_epoch(ep)
    for xb, yb in dl:
        step += 1
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("epoch %d step %d loss %.4f", ep, step, loss.item())
dist.barrier()
log.info("training done (%d steps)", step)
dist.destroy_process_group()
