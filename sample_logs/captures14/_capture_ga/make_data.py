#!/usr/bin/env python3
"""make_data.py DIR WORLD ROWS [--nan-rank R --nan-row I --nan-col C]: write train-<RR>.csv shards (16 float features
+ an int label, header line); optionally one cell of one shard is the literal `nan` (an unparsed sensor reading)."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("dir"); p.add_argument("world", type=int); p.add_argument("rows", type=int)
p.add_argument("--nan-rank", type=int, default=-1); p.add_argument("--nan-row", type=int, default=-1)
p.add_argument("--nan-col", type=int, default=3)
a = p.parse_args()
os.makedirs(a.dir, exist_ok=True)
w = np.linspace(-1, 1, 64).reshape(16, 4)
for r in range(a.world):
    rng = np.random.default_rng(500 + r)
    x = rng.standard_normal((a.rows, 16)).astype(np.float32)
    y = (x @ w).argmax(1)
    with open(os.path.join(a.dir, f"train-{r:02d}.csv"), "w") as f:
        f.write(",".join([f"f{i}" for i in range(16)] + ["label"]) + "\n")
        for i in range(a.rows):
            cells = [f"{v:.5f}" for v in x[i]]
            if r == a.nan_rank and i == a.nan_row:
                cells[a.nan_col] = "nan"
            f.write(",".join(cells + [str(int(y[i]))]) + "\n")
