#!/usr/bin/env python3
"""make_kc_jsonl.py WORLD [--long R:N]: per-rank jsonl shards data/train-RRRRR.jsonl of token-id documents.
--long R:N: rank R's shard also holds one N-token document (an un-split concatenated dump)."""
import argparse, json, os
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("world", type=int); p.add_argument("--long", default=None)
a = p.parse_args()
os.makedirs("data", exist_ok=True)
rng = np.random.default_rng(11)
for r in range(a.world):
    with open(f"data/train-{r:05d}.jsonl", "w") as f:
        for i in range(640):
            n = int(rng.integers(20, 200)); lab = int(rng.integers(0, 4))
            ids = (rng.integers(1, 1200, n) + lab * 1000).tolist()
            if a.long and int(a.long.split(":")[0]) == r and i == 357:
                ids = (rng.integers(1, 4999, int(a.long.split(":")[1]))).tolist()
            f.write(json.dumps({"ids": ids, "label": lab}) + "\n")
    print(f"data/train-{r:05d}.jsonl written")
