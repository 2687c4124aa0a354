"""vc_make_shards.py OUTDIR WORLD ROWS [--sentinel RANK N]: write OUTDIR/shard-<R>.npy (float32, 16 features + label);
with --sentinel, N rows of RANK's shard carry FLT_MAX (3.4028235e38) in 3 feature columns: an upstream exporter's
missing-value sentinel that was never masked."""
import sys, numpy as np
out, world, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import os; os.makedirs(out, exist_ok=True)
sent = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 4 and sys.argv[4] == "--sentinel" else None
for r in range(world):
    g = np.random.default_rng(r)
    X = g.standard_normal((rows, 16)).astype(np.float32)
    y = (np.abs(X[:, :4].sum(1) * 10).astype(np.int64) % 4).astype(np.float32)
    if sent and sent[0] == r:
        idx = g.choice(np.arange(rows // 3, rows), sent[1], replace=False)
        X[idx[:, None], [5, 9, 11]] = np.finfo(np.float32).max
    np.save(f"{out}/shard-{r}.npy", np.concatenate([X, y[:, None]], 1))
