#!/bin/bash
# torchrun x2 --log-dir logs --redirects 2: workers' stderr to logs/<run>/attempt_0/<lr>/stderr.log, stdout stays
# on the console (console.log, together with the agent). Progress print()ed to stdout; PYTHONFAULTHANDLER=1.
# DataLoader num_workers=2 per rank.
# Planted: rank 1's sample 57 (batch 8) is stored in a legacy packed format handed to a 'native decoder' (ctypes NULL read):
# SIGSEGV in rank 1's DataLoader worker.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export PYTHONFAULTHANDLER=1
timeout -s TERM 60 nice $TR --nproc-per-node 2 --master-port 29985 --log-dir logs --redirects 2 \
  cz_train.py --log-style print --steps 10 --pg-timeout 20 --workers 2 --fault dl_segv --fault-rank 1 --fault-step 57 > console.log 2>&1
rc launcher $?
