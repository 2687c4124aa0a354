#!/bin/bash
# torchrun --standalone x2 --max-restarts 1; logging.basicConfig() defaults on stderr + a bare FileHandler per rank
# (logs/rank<R>.log, append mode, so both attempts land in the same file). console.log = agent + workers.
# Planted: a transient ConnectionResetError on rank 1 at step 4 of attempt 0 only (TORCHELASTIC_RESTART_COUNT=0);
# the agent restarts the worker group, attempt 1 trains to the end. The process group is built over
# PrefixStore("attempt-<restart>") on the agent store (without it attempt 1 reads attempt 0's stale gloo addresses).
# --warnings: a FutureWarning, a caught ConnectionRefusedError logged at ERROR, a grad-norm WARNING.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 nice $TR --standalone --nproc-per-node 2 --max-restarts 1 ga_train.py --steps 10 --sleep 0.2 \
  --pg-timeout 30 --log-style basic --log-file 'logs/rank{rank}.log' --fault transient --fault-rank 1 --fault-step 4 --attempt-store --warnings \
  > console.log 2>&1
rc launcher $?
