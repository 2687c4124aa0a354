"""uc_make_npy_shards.py DIR: the feature shards (float32 rows: 16 features + label) on the backing volume."""
import os, sys
import numpy as np

out = sys.argv[1]; os.makedirs(out, exist_ok=True)
for r in range(3):
    rng = np.random.default_rng(200 + r)
    X = rng.standard_normal((1200, 16)).astype("float32")
    y = (np.abs(X[:, :4].sum(1) * 10).astype("int64") % 4).astype("float32")
    np.save(os.path.join(out, f"shard-{r}.npy"), np.concatenate([X, y[:, None]], 1))
print("wrote 3 shards to", out)
