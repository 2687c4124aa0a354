"""Write the JSONL token shards the d-* trainers read: data/shard-0000N.jsonl, one per rank.

    python make_shards.py DIR --world 4 [--lines 200] [--truncate-line RANK:LINE]
                                        [--bad-token RANK:LINE:ID]

Each line is {"id": ..., "tokens": [16 ints < 100], "label": int < 4}. The data faults
write a line cut in the middle (as a partial copy leaves it) or a token id beyond the
vocabulary into one rank's shard.
"""
import argparse
import json
import os
import random

p = argparse.ArgumentParser()
p.add_argument("dir")
p.add_argument("--world", type=int, default=4)
p.add_argument("--lines", type=int, default=200)
p.add_argument("--truncate-line", default=None)
p.add_argument("--bad-token", default=None)
p.add_argument("--features", action="store_true", help="also write features.f32 (memmap source)")
a = p.parse_args()
os.makedirs(a.dir, exist_ok=True)
rng = random.Random(7)
trunc = tuple(map(int, a.truncate_line.split(":"))) if a.truncate_line else None
bad = tuple(map(int, a.bad_token.split(":"))) if a.bad_token else None
for r in range(a.world):
    with open(os.path.join(a.dir, f"shard-{r:05d}.jsonl"), "w") as f:
        for i in range(a.lines):
            toks = [rng.randrange(100) for _ in range(16)]
            if bad and bad[0] == r and bad[1] == i:
                toks[5] = bad[2]
            rec = {"id": f"s{r}-{i:06d}", "tokens": toks, "label": sum(toks) % 4}
            line = json.dumps(rec)
            if trunc and trunc[0] == r and trunc[1] == i:
                line = line[: len(line) // 2]
            f.write(line + "\n")
if a.features:
    import numpy as np
    for r in range(a.world):
        np.random.default_rng(r).standard_normal((a.lines, 16)).astype("float32").tofile(
            os.path.join(a.dir, f"features-{r:05d}.f32"))
