"""Build the toy dataset: per-rank shards shard_XX.npz (features, int labels) + val.npz (+ per-rank val_XX.npz)."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--shards", type=int, default=4)
p.add_argument("--rows", type=int, default=512)
p.add_argument("--features", type=int, default=16)
p.add_argument("--nan-rows-shard", type=int, default=-1)   # a shard with a few rows holding missing (nan) features
p.add_argument("--val-drop-class-shard", type=int, default=-1)  # a per-rank val split with no row of the last class
p.add_argument("--val-rows", type=int, default=128)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.normal(size=(a.features, 4))
for s in range(a.shards):
    x = rng.normal(size=(a.rows, a.features)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if s == a.nan_rows_shard:
        x[rng.choice(np.arange(a.rows * 5 // 8, a.rows), 5, replace=False), 3] = np.nan
    np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
    xv = rng.normal(size=(a.val_rows, a.features)).astype(np.float32)
    yv = (xv @ w).argmax(1).astype(np.int64)
    if s == a.val_drop_class_shard:
        k = yv != 3; xv, yv = xv[k], yv[k]
    np.savez(os.path.join(a.out, f"val_{s:02d}.npz"), x=xv, y=yv)
xv = rng.normal(size=(64, a.features)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=(xv @ w).argmax(1).astype(np.int64))
print(f"wrote {a.shards} shards ({a.rows} rows) to {a.out}")
