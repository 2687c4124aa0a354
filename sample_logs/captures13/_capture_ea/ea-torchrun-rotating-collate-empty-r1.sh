#!/bin/bash
# torchrun x3 (c10d standalone); each rank logs only to its own rotating file logs/rank<R>/train.log
# (RotatingFileHandler, maxBytes 4096, 3 backups, DEBUG level) and prints a per-phase timing table at shutdown,
# so the failure ends up in a rotated file. console.log = the agent + what the workers print themselves.
# Planted: rank 1's sample 5 of the batch at step 9 is an empty record (0 features).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $TR --standalone --nproc-per-node 3 ea_train.py --steps 14 --sleep 0.2 --pg-timeout 30 \
  --log-style rot --log-file 'logs/rank{rank}/train.log' --shutdown-report \
  --fault collate_empty --fault-rank 1 --fault-step 9 > console.log 2>&1
rc launcher $?
