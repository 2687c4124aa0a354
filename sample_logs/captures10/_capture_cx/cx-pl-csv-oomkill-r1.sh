#!/bin/bash
# Lightning 'ddp' x2 (gloo, CPU), CSVLogger; console.log = the job's stdout+stderr (Lightning's banners, the
# ranks' progress prints, tracebacks) + csv_logs/tiny/version_0/metrics.csv.
# Planted: once rank 1 prints its step-16 progress line, rank 1's process is SIGKILLed from outside (what the
# kernel OOM killer does: no line from the victim). Rank 0 is left in a gloo collective.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $PY cx_pl.py --devices 2 --epochs 6 > console.log 2>&1 &
L=$!
for i in $(seq 1 600); do
  if grep -q '^rank 1 pid [0-9]* step 16 ' console.log 2>/dev/null; then
    pid=$(grep -o '^rank 1 pid [0-9]*' console.log | head -1 | awk '{print $4}'); kill -KILL "$pid"
    echo "killed rank 1 pid $pid"; break
  fi
  sleep 0.1
done
wait $L; rc python $?
