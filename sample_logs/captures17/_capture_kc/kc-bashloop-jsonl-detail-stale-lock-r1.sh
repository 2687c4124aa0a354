#!/bin/bash
# Own launcher: a bash loop starts the 2 ranks in the background (RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT exported),
# each rank's JSON-lines log on stdout into logs/rank-R.jsonl, its stderr into logs/rank-R.stderr; the launcher
# writes logs/launcher.log (start and exit of each rank). TORCH_DISTRIBUTED_DEBUG=DETAIL, TORCH_CPP_LOG_LEVEL=INFO,
# process-group timeout 25 s; each rank under `timeout -s TERM 75` (the launcher's wall limit).
# Ranks wait for their dataset cache lock data/cache-R/.lock to disappear before building the model.
# Planted: data/cache-1/.lock is a stale lock left by a killed preprocessing job (never released): rank 1 waits
# forever; rank 0 goes on into the first collective (DDP's parameter verification).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs data/cache-0 data/cache-1
echo "pid 31337 host prep-07 started 2026-12-06T09:12:03" > data/cache-1/.lock
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29733 WORLD_SIZE=2 TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO
pids=""
for r in 0 1; do
  echo "$(date '+%F %T') launcher: starting rank $r" >> logs/launcher.log
  RANK=$r LOCAL_RANK=$r timeout -s TERM 75 nice $PY kc_train.py --log-style jsonl --steps 12 --pg-timeout 25 \
    --lockfile 'data/cache-{rank}/.lock' > logs/rank-$r.jsonl 2> logs/rank-$r.stderr &
  pids="$pids $!"
done
r=0; st=0
for p in $pids; do wait $p; s=$?; echo "$(date '+%F %T') launcher: rank $r (pid $p) exited with status $s" >> logs/launcher.log
  [ $s -ne 0 ] && st=$s; r=$((r+1)); done
rc launcher $st
