"""Build the toy dataset: per-rank shards shard_XX.npz (features, label names) + classes.txt + stats.pkl + val.npz."""
import argparse, os, pickle
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--shards", type=int, default=4)
p.add_argument("--rows", default="256")          # one value, or one per shard (comma separated)
p.add_argument("--features", type=int, default=16)
p.add_argument("--unknown-label-shard", type=int, default=-1)  # a shard with 3 rows labelled "unknown" in one batch
p.add_argument("--val-rows", type=int, default=64)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
classes = ["cat", "dog", "bird", "fish"]
w = rng.normal(size=(a.features, len(classes)))
rows = [int(r) for r in a.rows.split(",")]
with open(os.path.join(a.out, "classes.txt"), "w") as f:
    f.write("\n".join(classes) + "\n")
for s in range(a.shards):
    n = rows[s] if len(rows) > 1 else rows[0]
    x = rng.normal(size=(n, a.features)).astype(np.float32)
    y = np.array(classes, dtype="<U8")[(x @ w).argmax(1)]
    if s == a.unknown_label_shard:
        y[[165, 170, 181]] = "unknown"
    np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
xv = rng.normal(size=(a.val_rows, a.features)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=np.array(classes)[(xv @ w).argmax(1)])
with open(os.path.join(a.out, "stats.pkl"), "wb") as f:
    pickle.dump({"mean": np.zeros(a.features, np.float32), "std": np.ones(a.features, np.float32), "classes": classes}, f)
print(f"wrote {a.shards} shards ({a.rows} rows) to {a.out}")
