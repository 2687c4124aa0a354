#!/bin/bash
# python bg_train.py --nprocs 3 (torch.multiprocessing.spawn, DDP over gloo, pg timeout 45 s), logging to the console,
# 120 steps over each rank's shard in stored order. The loop skips a batch whose labels are all -1 (ignore index)
# with `continue` before forward/backward; after the loop rank 0 saves final.pt and the other ranks poll for it, then all evaluate it. Rank 1's shard has its rows 3808-3839 unlabelled (-1): that is its
# batch for step 119, so rank 1 skips that step's backward allreduce while ranks 0 and 2 wait in it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 3 --rows 4096 > prep.log
$PY - <<'PY'
import numpy as np
d = np.load("data/shard_01.npz"); y = d["y"].copy(); y[3776:3808] = -1
np.savez("data/shard_01.npz", x=d["x"], y=y)
PY
$PY bg_train.py --nprocs 3 --data data --steps 120 --save final.pt --eval-after --skip-unlabelled --log-every 20 --pg-timeout 45 --step-sleep 0.02 > console.log 2>&1
rc python $?
