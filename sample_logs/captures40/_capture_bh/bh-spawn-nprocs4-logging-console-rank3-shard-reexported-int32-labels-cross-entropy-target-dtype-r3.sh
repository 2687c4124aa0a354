#!/bin/bash
# python bh_train.py --nprocs 4 (torch.multiprocessing.spawn, DDP over gloo, Python logging from every rank on the
# console). Shard 3 was re-exported by a different preprocessing step that wrote the labels as int32 (the others
# int64): rank 3's first CrossEntropyLoss call refuses the target dtype.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 4 --rows 2048 > prep.log
$PY - <<'PY'
import numpy as np
d = np.load("data/shard_03.npz")
np.savez("data/shard_03.npz", x=d["x"], y=d["y"].astype(np.int32))
PY
$PY bh_train.py --nprocs 4 --data data --steps 300 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc python $?
