"""oc_make_items.py OUT NITEMS SIZE0,SIZE1,...: item_features.npy (float32 [NITEMS, 64]) and one index shard
items-rank<R>.npy per listed size."""
import os, sys
import numpy as np

out, n, sizes = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
np.save(os.path.join(out, "item_features.npy"), rng.normal(size=(n, 64)).astype(np.float32))
for r, s in enumerate(sizes):
    np.save(os.path.join(out, f"items-rank{r}.npy"), rng.integers(0, n, size=s))
