"""tc_make_shards.py OUT NRANKS NPARTS: float32 shard files OUT/rank<R>/part-<k>.bin, 256 rows of 17 values each
(16 features + the label as a float)."""
import os, sys
import numpy as np
out, nr, npart = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for r in range(nr):
    os.makedirs(f"{out}/rank{r}", exist_ok=True)
    rng = np.random.default_rng(100 + r)
    for k in range(npart):
        X = rng.standard_normal((256, 16)).astype(np.float32)
        y = (np.abs(X[:, :4].sum(1) * 10).astype(np.int64) % 4).astype(np.float32)
        np.concatenate([X, y[:, None]], 1).astype(np.float32).tofile(f"{out}/rank{r}/part-{k:04d}.bin")
print(f"{nr} ranks x {npart} parts written under {out}")
