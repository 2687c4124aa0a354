#!/bin/bash
# torchrun --standalone --nproc-per-node 3 bg_train.py --log-dir logs --console rank0 --check-finite: Python logging
# with one FileHandler per rank (logs/rank<r>.log), rank 0 also on the console; DDP over gloo. The loop raises
# FloatingPointError on a non-finite loss. Rank 2's shard has 3 rows whose features are ~3e37 (a unit-conversion
# bug in one export): their batch overflows to inf in the first layers and the loss is nan on rank 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 3 --rows 4096 > prep.log
$PY - <<'PY'
import numpy as np
d = np.load("data/shard_02.npz"); x = d["x"].copy(); x[[905, 2210, 3301]] *= 3e37
np.savez("data/shard_02.npz", x=x, y=d["y"])
PY
torchrun --standalone --nproc-per-node 3 bg_train.py --data data --log-dir logs --console rank0 --check-finite \
  --steps 500 --log-every 25 --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1
rc torchrun $?
