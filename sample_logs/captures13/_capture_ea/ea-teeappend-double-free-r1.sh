#!/bin/bash
# bash loop, 3 ranks, env:// rendezvous; every rank runs `python ea_train.py ... 2>&1 | tee -a train.log` (one shared
# log file appended by all ranks; tee's own stdout, the terminal copy, goes to /dev/null here); what bash itself
# prints about the rank pipelines goes to launch.err. Core dumps off (ulimit -c 0).
# Planted: at step 7 rank 1 calls a 'native augment' helper (ctypes) that frees one malloc'd buffer twice:
# glibc aborts the process (SIGABRT).
. "$(dirname "$(readlink -f "$0")")/common.sh"
ulimit -c 0
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29731 WORLD_SIZE=3
{
for R in 0 1 2; do
  RANK=$R LOCAL_RANK=$R bash -c "nice $PY ea_train.py --steps 14 --pg-timeout 30 --log-style iso --fault double_free --fault-rank 1 --fault-step 7 2>&1 | tee -a train.log > /dev/null" &
done
wait
} 2> launch.err
rc launcher $?
