#!/usr/bin/env python3
"""make_pairs.py N1,N2,...: per-rank pair shards data/pairs-<R>.pt (x [n,16] float32, y [n] int64; consecutive
samples 2k, 2k+1 form one pair). The sizes are what the dedup pass left per shard."""
import os, sys, torch
os.makedirs("data", exist_ok=True)
g = torch.Generator().manual_seed(3)
w = torch.linspace(-1, 1, 64).reshape(16, 4)
for r, n in enumerate(int(v) for v in sys.argv[1].split(",")):
    x = torch.randn(n, 16, generator=g); y = (x @ w).argmax(1)
    torch.save((x, y), f"data/pairs-{r}.pt")
