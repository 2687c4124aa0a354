"""oc_make_rpc_data.py OUT TRAINERS PARTS ROWS [trainer:part:cols ...]: write OUT/<trainer>/part-NNNN.npz shards
(x float32 [ROWS, cols], y float32), 32 feature columns unless overridden for one trainer's part."""
import os, sys
import numpy as np

out, n, parts, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
over = {(a, int(b)): int(c) for a, b, c in (s.split(":") for s in sys.argv[5:])}
rng = np.random.default_rng(7)
w = rng.normal(size=48).astype(np.float32)
for t in range(1, n + 1):
    d = os.path.join(out, f"trainer{t}")
    os.makedirs(d, exist_ok=True)
    for p in range(parts):
        cols = over.get((f"trainer{t}", p), 32)
        x = rng.normal(size=(rows, cols)).astype(np.float32)
        y = (x @ w[:cols] + 0.1 * rng.normal(size=rows)).astype(np.float32)
        np.savez(os.path.join(d, f"part-{p:04d}.npz"), x=x, y=y)
