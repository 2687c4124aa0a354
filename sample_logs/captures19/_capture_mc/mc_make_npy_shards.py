#!/usr/bin/env python3
"""mc_make_npy_shards.py OUT WORLD [--outliers R:N:SCALE]: OUT/shard-<r>.npy, 640 rows of 20 standardised features +
a label column (5 classes). --outliers: N rows of rank R's shard carry raw, unnormalised values (x SCALE)."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("out"); p.add_argument("world", type=int); p.add_argument("--outliers")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
g = np.random.default_rng(21); w = g.standard_normal((20, 5))
for r in range(a.world):
    x = g.standard_normal((640, 20)).astype(np.float32); y = (x @ w).argmax(1)
    if a.outliers and int(a.outliers.split(":")[0]) == r:
        _, n, sc = a.outliers.split(":")
        rows = g.choice(640, int(n), replace=False); x[rows] *= np.float32(float(sc))
    np.save(f"{a.out}/shard-{r}.npy", np.concatenate([x, y[:, None].astype(np.float32)], 1))
    print(f"{a.out}/shard-{r}.npy")
