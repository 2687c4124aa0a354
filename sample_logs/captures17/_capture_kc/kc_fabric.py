#!/usr/bin/env python3
"""kc_fabric.py: Lightning Fabric training script (run with `fabric run`) for the roundI kc-* jobs.
Each rank loads shards/part-RRRRR.npz (features + a text field), hashes the text field with the ctypes helper
libkctok.so (built from kctok.c) as an extra feature, then trains a small MLP with fabric.backward.
Logging: hydra-style `[asctime][name][LEVEL] - msg` records on stdout, fabric.print on rank 0."""
import ctypes, logging, os, sys, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s", level=logging.INFO,
                    stream=sys.stdout)
log = logging.getLogger(f"kc_fabric.rank{os.environ.get('RANK', '?')}")


def token_hashes(texts):
    lib = ctypes.CDLL(os.path.abspath("libkctok.so"))
    lib.kc_hash_tokens.restype = ctypes.c_uint64
    lib.kc_hash_tokens.argtypes = [ctypes.c_char_p, ctypes.c_int]
    out = np.empty(len(texts), dtype=np.float32)
    for i, t in enumerate(texts):
        s = str(t).encode()
        out[i] = (lib.kc_hash_tokens(s or None, len(s)) % 1000) / 1000.0
    return out


def main():
    fabric = L.Fabric()
    if "LT_CLI_USED" not in os.environ:  # `fabric run` has already started the processes
        fabric.launch()
    r = fabric.global_rank
    fabric.print(f"fabric: world_size {fabric.world_size}, strategy {type(fabric.strategy).__name__}")
    log.info("rank %d/%d pid %d on %s", r, fabric.world_size, os.getpid(), os.uname().nodename)
    z = np.load(f"shards/part-{r:05d}.npz")
    texts = list(z["text"])
    log.info("shard shards/part-%05d.npz: %d records with text field", r, len(texts))
    t0 = time.time()
    h = token_hashes(texts)
    log.info("libkctok: hashed %d text fields in %.3fs", len(h), time.time() - t0)
    x = torch.from_numpy(np.concatenate([z["x"], h[:, None]], 1)).float()
    y = torch.from_numpy(z["y"]).long()
    model = nn.Sequential(nn.Linear(25, 64), nn.ReLU(), nn.Linear(64, 6))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model, opt = fabric.setup(model, opt)
    dl = fabric.setup_dataloaders(DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True))
    step = 0
    for epoch in range(2):
        for xb, yb in dl:
            step += 1
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            fabric.backward(loss)
            opt.step()
            if step % 4 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.1)
            if step >= 24:
                break
    fabric.barrier()
    fabric.print(f"done: {step} steps")


if __name__ == "__main__":
    main()
