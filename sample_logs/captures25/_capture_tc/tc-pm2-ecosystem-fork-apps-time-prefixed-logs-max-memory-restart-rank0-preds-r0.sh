#!/bin/bash
# pm2 (node process manager) as the launcher: ecosystem file tc_pm2.config.js with one fork-mode app per env:// rank,
# pm2's per-app out / err files under pm2logs/ with pm2's `time: true` timestamp prefix, pm2's daemon log
# (pm2home/pm2.log). The team template sets max_memory_restart 700M and autorestart false. The trainer's epoch-end
# metric runs a fixed probe set through model.module on rank 0 every step (outside torch.no_grad) and keeps the softmax outputs until the end of the epoch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export PM2_HOME=$J/pm2home PM2_WORKER_INTERVAL=5000 TC_PY=$PY
export TC_ARGS="--epoch-auc --hidden 4096 --bs 128 --rows 25600 --epochs 2 --pg-timeout 60 --fmt '%(asctime)s %(levelname)s %(name)s rank{rank}: %(message)s'"
mkdir -p pm2logs
pm2 start tc_pm2.config.js > pm2-start.out 2>&1
for i in $(seq 1 50); do
  sleep 4; pm2 jlist 2>/dev/null | $PY -c 'import json,sys; L=json.load(sys.stdin); sys.exit(0 if any(p["pm2_env"]["status"]=="online" for p in L) else 1)' || break
done
pm2 ls > pm2-ls.txt 2>&1
pm2 kill > /dev/null 2>&1
rc pm2 0
