#!/bin/bash
# mpirun -np 4 --tag-output python bx_train.py --max-steps-from-shard: 4 ranks (rank/size from Open MPI's env), DDP over
# gloo, logging with a host/rank format on stderr. Each rank computes its own step budget as epochs x len(its loader).
# Rank 2's shard has 416 rows (13 batches of 32) instead of 512 (16): it reaches its max_steps (39) 9 steps before the
# others, logs "stopping", tears down its process group and exits with code 0; ranks 0/1/3 are then alone in the next
# DDP all-reduce and fail.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 4 --rows 512 --rows-shard 2:416 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 4 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29733 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bx_train.py --data data --log-format plain --epochs 3 \
  --max-steps-from-shard --log-every 8 --pg-timeout 30 --step-sleep 0.02 > console.log 2>&1
rc mpirun $?
