#!/bin/bash
# python bi_ddp.py --nprocs 4 (torch.multiprocessing.spawn, DDP over gloo, Python logging on the console, only rank 0
# logs step lines). Every 25 steps each rank evaluates on its own validation split (data/val_<rank>.npz) and applies
# early stopping (patience 3) on its *local* val loss: the decision is not synchronised across ranks. Rank 2's
# validation split has scrambled labels (planted: a bad split export), so its val loss never improves and rank 2
# returns from the training function (exit 0) at step 100 while ranks 0, 1, 3 continue into the next allreduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 4 --rows 2048 > prep.log
$PY - <<'PY'
import numpy as np
v = np.load("data/val.npz"); rng = np.random.default_rng(5)
for r in range(4):
    y = v["y"].copy()
    if r == 2:
        y = rng.integers(0, 4, len(y))
    np.savez(f"data/val_{r}.npz", x=v["x"], y=y)
PY
$PY bi_ddp.py --nprocs 4 --steps 400 --log-every 25 --eval-every 25 --val-file 'data/val_{rank}.npz' \
  --early-stop-patience 3 --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1
rc python $?
