#!/bin/bash
# torchrun x3 --max-restarts 2 --tee 3, c10d rendezvous; the console goes to console.log ('[defaultN]:' prefixes).
# Per-rank Python logging in the kv format to logs/rank{R}.log and to stderr (--also-stderr).
# Planted: on attempt 0 rank 1 raises TimeoutError fetching its shard at step 4 (remote store flake); the agent
# restarts the group, attempt 1 runs to the end. Plus alarming warnings (no grad clipping, stale lock files).
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29942 --max-restarts 2 \
  --tee 3 cx_train.py --log-style kv --log-file 'logs/rank{rank}.log' --also-stderr --steps 8 --sleep 0.2 \
  --pg-timeout 30 --attempt-store --warnings --fault transient --fault-rank 1 --fault-step 4 > console.log 2>&1
rc launcher $?
