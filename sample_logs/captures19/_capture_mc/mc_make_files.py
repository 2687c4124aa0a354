#!/usr/bin/env python3
"""mc_make_files.py OUT N1,N2,...: write OUT/src-KK.x.npy / .y.npy with the given row counts (16 features, 5
classes from a fixed linear map) and OUT/files.txt listing them in order."""
import os, sys
import numpy as np
out, counts = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
os.makedirs(out, exist_ok=True)
g = np.random.default_rng(7)
w = g.standard_normal((16, 5))
names = []
for k, c in enumerate(counts):
    x = g.standard_normal((c, 16)).astype(np.float32)
    np.save(f"{out}/src-{k:02d}.x.npy", x); np.save(f"{out}/src-{k:02d}.y.npy", (x @ w).argmax(1))
    names.append(f"src-{k:02d}")
    print(f"{out}/src-{k:02d}: {c} rows")
open(f"{out}/files.txt", "w").write("\n".join(names) + "\n")
