#!/bin/bash
# torchrun --standalone --role loader x2 --log-dir logs --redirects 3 --tee 3 (console.log: agent + '[loaderN]:'
# copies; logs/<run>/attempt_0/<lr>/{stdout,stderr}.log). 60 s process-group timeout; 100 s outer timeout.
# Planted: rank 1's prefetch queue runs dry at step 5 and it reads its next shard part from a named pipe that no
# writer ever opens (stream/part-00001.fifo): blocked in open(), silent.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p stream; mkfifo stream/part-00001.fifo
timeout -s TERM 100 nice $TR --standalone --nproc-per-node 2 --role loader --log-dir logs --redirects 3 --tee 3 \
  cz_train.py --log-style pipe --steps 12 --pg-timeout 60 --fault fifo_stall --fault-rank 1 --fault-step 5 > console.log 2>&1
rc launcher $?
