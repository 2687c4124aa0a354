"""nc_make_feats.py DIR WS [BADRANK:ROW]: per-rank float32 feature shards; optionally an exported row of +inf
(a unit-conversion overflow in the export) at ROW of BADRANK's shard."""
import sys, os, numpy as np
d, ws = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
bad = tuple(map(int, sys.argv[3].split(":"))) if len(sys.argv) > 3 else None
for r in range(ws):
    a = np.random.default_rng(r).normal(size=(2560, 24)).astype(np.float32)
    if bad and bad[0] == r:
        a[bad[1], 3] = np.float32(3e38) * 10
    np.save(os.path.join(d, f"feat-{r}.npy"), a)
    print(f"wrote {d}/feat-{r}.npy {a.shape}")
