"""make_samples.py DIR N: N sample files (16 float32 + 1 int64 label) for s_pl.py."""
import os, sys
import numpy as np
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(0)
for i in range(n):
    with open(os.path.join(d, f"sample-{i:05d}.bin"), "wb") as f:
        f.write(rng.standard_normal(16).astype(np.float32).tobytes() + np.int64(rng.integers(0, 4)).tobytes())
