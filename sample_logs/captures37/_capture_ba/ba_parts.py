"""Export per-rank CSV parts: data/rank_XX/part-NNNNN.csv (16 features + label per row)."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--ranks", type=int, default=4)
p.add_argument("--parts", type=int, default=10)
p.add_argument("--rows", type=int, default=2048)
p.add_argument("--bad", default="")   # rank:part:row -> that row's feature 7 was exported with a lost separator
a = p.parse_args()
rng = np.random.default_rng(3)
w = rng.normal(size=(16, 4))
bad = tuple(map(int, a.bad.split(":"))) if a.bad else None
for r in range(a.ranks):
    os.makedirs(os.path.join(a.out, f"rank_{r:02d}"), exist_ok=True)
    for k in range(a.parts):
        x = rng.normal(size=(a.rows, 16)).astype(np.float32); y = (x @ w).argmax(1)
        lines = [",".join(f"{v:.5f}" for v in row) + f",{l}" for row, l in zip(x, y)]
        if bad and bad[:2] == (r, k):
            f = lines[bad[2]].split(","); f[7:9] = [f[7] + f[8]]; lines[bad[2]] = ",".join(f)
        with open(os.path.join(a.out, f"rank_{r:02d}", f"part-{k:05d}.csv"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
v = rng.normal(size=(64, 16)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=v, y=(v @ w).argmax(1))
