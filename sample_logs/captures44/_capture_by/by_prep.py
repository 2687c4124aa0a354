"""Build the toy dataset: per-rank shards shard_XX.npz (features, int labels) + val.npz."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--shards", type=int, default=4)
p.add_argument("--rows", type=int, default=256)
p.add_argument("--features", type=int, default=16)
p.add_argument("--f64-shard", type=int, default=-1)       # a shard whose features were exported as float64
p.add_argument("--nan-rows-shard", type=int, default=-1)  # a shard with a few rows holding missing (nan) features
p.add_argument("--noisy-holdout-shard", type=int, default=-1)  # a shard whose last 20% labels are shuffled
p.add_argument("--label-noise-shard", type=int, default=-1)  # a shard with 35% of its labels flipped
p.add_argument("--scale-shard", type=int, default=-1)     # a shard with features in a wider range (x6)
p.add_argument("--extra-class-shard", type=int, default=-1)  # a shard re-labelled with a 5-class scheme (class id 4 present)
p.add_argument("--rows-shard", default="")              # "shard:rows": one shard with a different row count
p.add_argument("--big-shard", default="")               # "shard:rows": a shard re-exported with many more rows as float64
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.normal(size=(a.features, 4))
for s in range(a.shards):
    n_rows = int(a.rows_shard.split(":")[1]) if a.rows_shard and s == int(a.rows_shard.split(":")[0]) else a.rows
    x = rng.normal(size=(n_rows, a.features)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if s == a.scale_shard:
        x = x * 6.0
    if s == a.nan_rows_shard:
        x[[11, 40, 77, 123, 160, 201, 230], 5] = np.nan
    if s == a.noisy_holdout_shard:
        k = int(a.rows * 0.8); y[k:] = rng.permutation(y[k:]); y[k:] = (y[k:] + rng.integers(1, 4, len(y) - k)) % 4
    if s == a.label_noise_shard:
        m = rng.random(len(y)) < 0.35; y[m] = (y[m] + rng.integers(1, 4, m.sum())) % 4
    if s == a.extra_class_shard:
        y[(x[:, 0] > 1.2)] = 4
    if a.big_shard and s == int(a.big_shard.split(":")[0]):
        n = int(a.big_shard.split(":")[1]); x = rng.normal(size=(n, a.features)); y = (x @ w).argmax(1).astype(np.int64)
    if s == a.f64_shard:
        x = x.astype(np.float64)
    np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
xv = rng.normal(size=(64, a.features)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=(xv @ w).argmax(1).astype(np.int64))
print(f"wrote {a.shards} shards ({a.rows} rows) to {a.out}")
