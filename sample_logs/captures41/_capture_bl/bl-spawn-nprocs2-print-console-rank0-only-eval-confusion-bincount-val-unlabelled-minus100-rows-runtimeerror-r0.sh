#!/bin/bash
# python bl_train.py --nprocs 2 --style print --eval-rank0: torch.multiprocessing.spawn, 2 ranks, DDP over gloo.
# After training, rank 0 alone evaluates on val.npz (confusion matrix via torch.bincount(y_true*C + y_pred)) while
# rank 1 waits at a barrier. The validation file now carries 5 unlabelled rows marked with the ignore index -100:
# bincount gets negative values and raises on rank 0 only; training itself never touches val.npz.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 2 --rows 1024 --val-unlabelled 5 > prep.log
$PY bl_train.py --nprocs 2 --master-port 29742 --data data --style print --eval-rank0 --steps 120 --log-every 20 \
  --pg-timeout 60 > console.log 2>&1
rc spawn $?
