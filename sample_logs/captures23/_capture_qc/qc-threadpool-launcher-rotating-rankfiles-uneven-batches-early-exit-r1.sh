#!/bin/bash
# concurrent.futures.ThreadPoolExecutor launcher (qc_pool_launch.py), 3 env:// ranks; each rank logs only through a
# RotatingFileHandler (logs/rank<R>.log, maxBytes 1500, backupCount 3 -> rank<R>.log.1 ...), stderr to
# logs/rank<R>.stderr, launcher log launcher.log. Rank 1's shard is shorter (1400 rows vs 2000: 43 batches vs 62);
# the loop all_reduces the loss every step, so rank 1 leaves the loop early. Process-group timeout 30 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
timeout -s TERM 150 nice $PY qc_pool_launch.py 3 $PY qc_train.py --rows 2000,1400,2000 --epochs 1 --log-every 1 \
  --log 'rotating:logs/rank{rank}.log:1500' --pg-timeout 30
rc launcher $?
