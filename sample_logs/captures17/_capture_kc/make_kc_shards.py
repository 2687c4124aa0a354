#!/usr/bin/env python3
"""make_kc_shards.py OUT WORLD [--drop-class R:C] [--text] [--empty-text R:I]: per-rank shards OUT/part-RRRRR.npz
(x float32 [n,24], y int64, optional text field). --drop-class R:C: rank R's shard has no record of class C (a
filtered export). --empty-text R:I: record I of rank R has an empty text field.
--bad-value R:I: feature 3 of record I of rank R is inf."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("out"); p.add_argument("world", type=int)
p.add_argument("--classes", type=int, default=6)
p.add_argument("--n", type=int, default=400)
p.add_argument("--drop-class", default=None)
p.add_argument("--text", action="store_true")
p.add_argument("--empty-text", default=None)
p.add_argument("--bad-value", default=None)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(7)
w = rng.normal(size=(24, a.classes))
words = ["the", "loss", "of", "signal", "grid", "token", "alpha", "model", "node", "batch"]
for r in range(a.world):
    x = rng.normal(size=(a.n, 24)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if a.drop_class and int(a.drop_class.split(":")[0]) == r:
        keep = y != int(a.drop_class.split(":")[1])
        x, y = x[keep], y[keep]
    if a.bad_value and int(a.bad_value.split(":")[0]) == r:
        x[int(a.bad_value.split(":")[1]), 3] = np.inf  # a corrupt "inf" parsed from the CSV export
    d = {"x": x, "y": y}
    if a.text:
        t = np.array([" ".join(rng.choice(words, 6)) for _ in range(len(y))])
        if a.empty_text and int(a.empty_text.split(":")[0]) == r:
            t[int(a.empty_text.split(":")[1])] = ""
        d["text"] = t
    np.savez(os.path.join(a.out, f"part-{r:05d}.npz"), **d)
    print(f"{a.out}/part-{r:05d}.npz: {len(y)} records")
