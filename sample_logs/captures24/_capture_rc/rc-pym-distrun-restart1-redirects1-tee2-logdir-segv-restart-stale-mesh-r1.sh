#!/bin/bash
# `python -m torch.distributed.run --standalone --nproc-per-node 3 --max-restarts 1 --redirects 1 --tee 2
# --log-dir tlogs` (stdout of every worker only to the log-dir files, stderr to the files and, prefixed, the console);
# console in console.log. On the first attempt rank 1 reads a NULL staging buffer through ctypes at step 15
# (SIGSEGV); the agent restarts the group once (TORCHELASTIC_RESTART_COUNT=1) and the second attempt runs without it (planned as a healthy restart; the second attempt failed in gloo mesh setup, kept as it happened).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 200 nice $PY -m torch.distributed.run --standalone --nproc-per-node 3 --max-restarts 1 --redirects 1 \
  --tee 2 --log-dir tlogs rc_train.py --rows 700 --epochs 1 --segv 1:15 --pg-timeout 30 --summary > console.log 2>&1
rc run $?
