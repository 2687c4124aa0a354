#!/bin/bash
# mpirun -np 3 (Open MPI, used only to start the ranks; DDP over gloo, env:// from OMPI_COMM_WORLD_*) bd_train.py
# --prefetch: each rank decodes its text records (records_XX.txt, "f1,...,f16|label") in a prefetch thread that
# feeds a queue.Queue; the training loop blocks on q.get(). Logging: a per-rank FileHandler in the shared logs/ dir,
# rank 0 also on the console; mpirun's console (all ranks' stdout/stderr) in console.log. Rank 1's records file has
# one record at line 14419 with a missing value written as "NA": around step 450 of the first epoch (800 steps per epoch) the
# prefetch thread dies with ValueError (printed by threading's excepthook on stderr), never enqueues the end marker,
# and rank 1's main thread waits in q.get() forever; ranks 0 and 2 time out (30 s) in the next gradient allreduce,
# exit 1, and mpirun kills rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 3 --rows 25600 > prep.log
$PY - <<'PY'
import numpy as np
for r in range(3):
    d = np.load(f"data/shard_{r:02d}.npz")
    with open(f"data/records_{r:02d}.txt", "w") as f:
        for i, (x, y) in enumerate(zip(d["x"], d["y"])):
            feats = [f"{v:.6f}" for v in x]
            if r == 1 and i == 14418:
                feats[11] = "NA"
            f.write(",".join(feats) + f"|{y}\n")
PY
mpirun --allow-run-as-root --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29751 -x PYTHONUNBUFFERED \
  -x OMP_NUM_THREADS -x PATH $PY bd_train.py --data data --prefetch --steps 1600 --log-every 25 --pg-timeout 30 \
  --step-sleep 0.005 > console.log 2>&1
rc mpirun $?
