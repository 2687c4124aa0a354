#!/bin/bash
# ./bm_srunlike.sh -n 3 --label -- python bm_ddp.py --slurm --style print --steps 5000: the local srun --label
# stand-in (task-prefixed merged console), 3 ranks, DDP over gloo, print-style step lines from every rank. The console
# was copied to snapshot/ ~25 s into the run while the job was still training (stopped afterwards, not captured).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 3 --rows 2048 > prep.log
export SLURM_JOB_ID=52117
setsid ./bm_srunlike.sh -n 3 --label -- $PY bm_ddp.py --slurm --style print --steps 5000 --log-every 50 \
  --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1 &
P=$!
sleep 25
mkdir -p snapshot && cp console.log snapshot/console.log
kill -TERM -- -$P; wait $P; rc srun $?
