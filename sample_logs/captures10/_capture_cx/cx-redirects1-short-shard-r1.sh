#!/bin/bash
# torchrun x2 --log-dir logs --redirects 1 (stdout of each worker to logs/.../<lr>/stdout.log; stderr stays on
# the console together with the agent, unprefixed). Progress goes to stdout (print), warnings/errors to stderr.
# Planted: rank 1's data shard holds 4 batches instead of 12; rank 1 finishes its epoch and enters the final
# barrier while rank 0 is in step 5's all-reduce; 20 s process-group timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --standalone --nproc-per-node 2 --log-dir logs --redirects 1 cx_train.py --log-style print \
  --steps 12 --pg-timeout 20 --fault short_shard --fault-rank 1 --fault-step 4 > console.log 2>&1
rc launcher $?
