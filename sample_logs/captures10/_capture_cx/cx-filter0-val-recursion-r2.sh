#!/bin/bash
# torchrun x3 --tee 3 --local-ranks-filter 0: console.log shows only local rank 0's output (plus the agent);
# every rank also logs to its own file logs/rank{R}.log with Python logging
# '%(asctime)s rank=%(rank)s lvl=%(levelname)s %(name)s: %(message)s' (file only, no stderr handler).
# Planted: rank 2's validation metrics dict references itself from step 6 on; the recursive flatten in the
# validation step raises RecursionError on rank 2 only; ranks 0, 1 wait in the validation all-reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --standalone --nproc-per-node 3 --tee 3 --local-ranks-filter 0 cx_train.py --log-style kv \
  --log-file 'logs/rank{rank}.log' --steps 12 --val-every 3 --pg-timeout 30 \
  --fault val_recursion --fault-rank 2 --fault-step 6 > console.log 2>&1
rc launcher $?
