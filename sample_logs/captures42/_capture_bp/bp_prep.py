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
p.add_argument("--drop-class-shard", type=int, default=-1)  # a shard filtered to rows whose label is not 3
p.add_argument("--val-unlabelled", type=int, default=0)  # val rows left unlabelled (ignore_index -100)
p.add_argument("--one-based-shard", type=int, default=-1)  # a shard whose labels were exported 1-based (1..4)
p.add_argument("--scale-shard", type=int, default=-1)     # a shard with features in a wider range
p.add_argument("--scale", type=float, default=6.0)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.normal(size=(a.features, 4))
for s in range(a.shards):
    x = rng.normal(size=(a.rows, a.features)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if s == a.scale_shard:
        x = x * a.scale
    if s == a.nan_rows_shard:
        x[[11, 40, 77, 123, 160, 201, 230], 5] = np.nan
    if s == a.noisy_holdout_shard:
        k = int(a.rows * 0.8); y[k:] = rng.permutation(y[k:]); y[k:] = (y[k:] + rng.integers(1, 4, a.rows - k)) % 4
    if s == a.label_noise_shard:
        m = rng.random(a.rows) < 0.35; y[m] = (y[m] + rng.integers(1, 4, m.sum())) % 4
    if s == a.f64_shard:
        x = x.astype(np.float64)
    if s == a.drop_class_shard:
        k = y != 3; x, y = x[k], y[k]
    if s == a.one_based_shard:
        y = y + 1
    np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
xv = rng.normal(size=(64, a.features)).astype(np.float32)
yv = (xv @ w).argmax(1).astype(np.int64)
if a.val_unlabelled:
    yv[rng.choice(64, a.val_unlabelled, replace=False)] = -100
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=yv)
print(f"wrote {a.shards} shards ({a.rows} rows) to {a.out}")
