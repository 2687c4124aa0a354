#!/bin/bash
# python bu_train.py --nprocs 2 --feature-cache cache --cache-dtype float32 --ckpt-dir ckpt --eval
# (torch.multiprocessing.spawn, 2 ranks, logging.basicConfig). shard_00.npz was re-exported after the previous run
# built the caches: rank 0 logs a WARNING that its feature cache is stale and rebuilds it (same dtype and size, so its
# memory map stays valid). Runs to the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 2 --rows 512 > prep.log
$PY - >> prep.log <<'PY'
import numpy as np, os
os.makedirs("cache", exist_ok=True)
for r in range(2):
    x = np.load(f"data/shard_{r:02d}.npz")["x"]
    np.save(f"cache/feat_rank{r}.npy", ((x - x.mean(0)) / x.std(0)).astype("float32"))
PY
sleep 1.2; touch data/shard_00.npz
$PY bu_train.py --nprocs 2 --master-port 29761 --data data --feature-cache cache --cache-dtype float32 --epochs 4 --log-every 16 --ckpt-dir ckpt --eval > console.log 2>&1
rc python $?
