#!/bin/bash
# ./bx_srunlike.sh -n 4 --label -- python bx_train.py --show-total --epochs 50: 4 ranks, DDP over gloo, print-style
# lines with "epoch k/50". ~25 s in, console.log is copied to snapshot/ (as someone looking at the running job would);
# the job is then stopped (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 4 --rows 512 > prep.log
export SLURM_JOB_ID=562317
setsid ./bx_srunlike.sh -n 4 --label -- $PY bx_train.py --log-format print --show-total --epochs 50 --log-every 8 \
  --step-sleep 0.03 --pg-timeout 60 > console.log 2>&1 & T=$!
sleep 25; mkdir -p snapshot; cp console.log snapshot/
kill -TERM -- -$T; wait $T; rc srun $?
