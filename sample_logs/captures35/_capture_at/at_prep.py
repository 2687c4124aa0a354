"""Build the toy dataset: per-rank shards shard_XX.npz (features, int labels) + .rec record files + val.npz."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--shards", type=int, default=4)
p.add_argument("--rows", type=int, default=256)
p.add_argument("--features", type=int, default=16)
p.add_argument("--raw-col-shard", type=int, default=-1)     # a shard whose column 3 is left in raw units (not standardised)
p.add_argument("--extra-label-shard", type=int, default=-1)  # a shard with a few rows of label 4 (a 5th class)
p.add_argument("--rec", action="store_true")                 # also write shard_XX.rec (float32 records: features + label)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.normal(size=(a.features, 4))
for s in range(a.shards):
    x = rng.normal(size=(a.rows, a.features)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if s == a.raw_col_shard:
        x[:, 3] = (x[:, 3] * 900.0 + 4200.0).astype(np.float32)
    if s == a.extra_label_shard:
        y[[97, 140, 203]] = 4
    np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
    if a.rec:
        np.concatenate([x, y[:, None].astype(np.float32)], 1).astype(np.float32).tofile(os.path.join(a.out, f"shard_{s:02d}.rec"))
        with open(os.path.join(a.out, f"shard_{s:02d}.idx"), "w") as f:
            f.write(f"{a.rows} {a.features + 1}\n")
xv = rng.normal(size=(64, a.features)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=(xv @ w).argmax(1).astype(np.int64))
print(f"wrote {a.shards} shards ({a.rows} rows) to {a.out}")
