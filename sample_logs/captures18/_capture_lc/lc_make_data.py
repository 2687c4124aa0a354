#!/usr/bin/env python3
"""lc_make_data.py OUT NRANKS [--n N] [--nan R:I] [--bad-len R:I] [--raw]: per-rank shards OUT/part-<r>.npz with
x (N x 24 float32), y (6 classes), optional raw records (4-byte length + float32 payload, fixed 100-byte slots).
--nan R:I puts a NaN feature into record I of rank R (a missing CSV value); --bad-len R:I writes a corrupt length
header (0x7fff0000) into record I of rank R's raw records."""
import argparse, os
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("out"); p.add_argument("nranks", type=int)
p.add_argument("--n", type=int, default=400)
p.add_argument("--nan", default=None)
p.add_argument("--bad-len", default=None)
p.add_argument("--raw", action="store_true")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
w = np.linspace(-1, 1, 24 * 6).reshape(24, 6)
for r in range(a.nranks):
    g = np.random.default_rng(10 + r)
    x = g.standard_normal((a.n, 24)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if a.nan and int(a.nan.split(":")[0]) == r:
        x[int(a.nan.split(":")[1]), 7] = np.nan
    d = {"x": x, "y": y}
    if a.raw:
        raw = np.zeros((a.n, 100), dtype=np.uint8)
        for i in range(a.n):
            n = 0x7FFF0000 if a.bad_len and a.bad_len == f"{r}:{i}" else 96
            raw[i, :4] = np.frombuffer(np.uint32(n).tobytes(), dtype=np.uint8)
            raw[i, 4:] = np.frombuffer(x[i].tobytes(), dtype=np.uint8)
        d["raw"] = raw
    np.savez(os.path.join(a.out, f"part-{r:05d}.npz"), **d)
    print(f"{a.out}/part-{r:05d}.npz: {a.n} records")
