#!/bin/bash
# python bu_train.py --nprocs 4 --feature-cache cache (torch.multiprocessing.spawn, 4 ranks, logging.basicConfig,
# faulthandler enabled). Each rank memory-maps its standardised-feature cache cache/feat_rank<r>.npy (float32, left
# by the previous run's script version). shard_01.npz was re-exported after that run, so rank 1 finds its cache
# stale and rebuilds it in place with np.save (current default cache dtype float16): the file is truncated and
# rewritten at half the size while rank 1 still holds its float32 memory map of it. The first batch that touches
# rows past the new end of file raises SIGBUS in rank 1 (its own code); spawn then SIGTERMs the other ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 4 --rows 512 > prep.log
$PY - >> prep.log <<'PY'
import numpy as np, os
os.makedirs("cache", exist_ok=True)
for r in range(4):
    x = np.load(f"data/shard_{r:02d}.npz")["x"]
    np.save(f"cache/feat_rank{r}.npy", ((x - x.mean(0)) / x.std(0)).astype("float32"))
print("previous run's caches written")
PY
sleep 1.2; touch data/shard_01.npz
$PY bu_train.py --nprocs 4 --master-port 29731 --data data --feature-cache cache --epochs 3 --log-every 16 --eval > console.log 2>&1
rc python $?
