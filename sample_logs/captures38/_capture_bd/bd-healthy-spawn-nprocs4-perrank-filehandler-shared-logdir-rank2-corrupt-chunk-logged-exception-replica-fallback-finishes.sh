#!/bin/bash
# torch.multiprocessing.spawn(nprocs=4) started with plain python; each rank logs through Python logging to its own
# FileHandler in the shared logs/ dir (rank 0 also to the console). Each rank's shard is stored as 8 chunk files
# data/rank_XX/chunk_NN.npz with a replica tree data/replica/. Rank 2's chunk_05.npz on the primary copy is
# truncated (a partial sync): loading it raises zipfile.BadZipFile, which the loader logs with logger.exception
# (ERROR + traceback) and an ERROR "falling back to replica copy", then loads the replica and goes on. 640 steps,
# all ranks finish.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 4 --rows 6400 > prep.log
$PY - <<'PY'
import os, numpy as np
for r in range(4):
    d = np.load(f"data/shard_{r:02d}.npz")
    for sub in (f"data/rank_{r:02d}", f"data/replica/rank_{r:02d}"):
        os.makedirs(sub, exist_ok=True)
        for c in range(8):
            np.savez(f"{sub}/chunk_{c:02d}.npz", x=d["x"][c * 800:(c + 1) * 800], y=d["y"][c * 800:(c + 1) * 800])
    os.remove(f"data/shard_{r:02d}.npz")
p = "data/rank_02/chunk_05.npz"; b = open(p, "rb").read(); open(p, "wb").write(b[:len(b) // 3])
PY
$PY bd_train.py --nprocs 4 --data data --chunks --steps 640 --log-every 40 --step-sleep 0.01 --pg-timeout 60 \
  > console.log 2>&1
rc spawn $?
