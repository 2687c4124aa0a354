"""oc_make_pool_shards.py OUT WORLD PARTS ROWS [rank:part:rows ...]: data/rank<R>/part-NNN.npy float32 [rows, 32]."""
import os, sys
import numpy as np

out, world, parts, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
over = {(int(a), int(b)): int(c) for a, b, c in (s.split(":") for s in sys.argv[5:])}
rng = np.random.default_rng(5)
w = rng.normal(size=31).astype(np.float32)
for r in range(world):
    os.makedirs(os.path.join(out, f"rank{r}"), exist_ok=True)
    for p in range(parts):
        n = over.get((r, p), rows)
        x = rng.normal(size=(n, 31)).astype(np.float32)
        np.save(os.path.join(out, f"rank{r}", f"part-{p:03d}.npy"), np.hstack([x, (x @ w)[:, None]]))
