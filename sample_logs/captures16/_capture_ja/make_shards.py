#!/usr/bin/env python3
"""make_shards.py N [--truncate-rank R --truncate-bytes B]: write data/shard-<RR>.{bin,idx} (Megatron-style indexed
records: float32 features[16] + label, variable padding; .idx = int64 byte offsets). With --truncate-rank the .idx of
that rank is cut by B bytes, as an interrupted copy leaves it."""
import argparse, os
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("n", type=int); p.add_argument("--records", type=int, default=256)
p.add_argument("--truncate-rank", type=int, default=-1); p.add_argument("--truncate-bytes", type=int, default=5)
a = p.parse_args()
os.makedirs("data", exist_ok=True)
rng = np.random.default_rng(7)
w = np.linspace(-1, 1, 64).reshape(16, 4)
for r in range(a.n):
    recs, offs = [], [0]
    for i in range(a.records):
        x = rng.standard_normal(16).astype(np.float32)
        y = np.float32((x @ w).argmax())
        rec = np.concatenate([x, [y], np.zeros(rng.integers(0, 4), np.float32)]).astype(np.float32)
        recs.append(rec); offs.append(offs[-1] + rec.nbytes)
    np.concatenate(recs).tofile(f"data/shard-{r:02d}.bin")
    idx = np.array(offs, np.int64).tobytes()
    if r == a.truncate_rank:
        idx = idx[:-a.truncate_bytes]
    open(f"data/shard-{r:02d}.idx", "wb").write(idx)
