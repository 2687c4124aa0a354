#!/bin/bash
# Site "detach" launcher: each of 3 env:// ranks is started with `setsid -f stdbuf -oL python qc_train.py --log json`
# (detached from the shell, own session), stdout+stderr to logs/rank-<R>.jsonl (one JSON object per log record).
# The operator copies logs/ to snapshot/ 14 s after the start, while the job is still training (6 epochs); the job
# is stopped afterwards by the harness (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
for r in 0 1 2; do
  RANK=$r WORLD_SIZE=3 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=29855 \
    setsid -f stdbuf -oL $PY qc_train.py --rows 6000 --epochs 6 --sleep 0.05 --log json > logs/rank-$r.jsonl 2>&1
done
sleep 14; cp -r logs snapshot; echo "snapshot taken $(date '+%T')"
for pid in $(pgrep -f "qc_train.py --rows 6000 --epochs 6"); do kill $pid; done; sleep 2
