#!/bin/bash
# torchrun --standalone --nproc-per-node 3, console in console.log; the site stall watchdog (stallwatch.sh, log
# stallwatch.log) kills a rank whose metrics/rank<R>.csv has not been appended to for 15 s. Every 10 steps each rank
# appends a row to metrics/rank<R>.csv under an exclusive flock. Planted: a leftover exporter of an earlier job
# (`flock metrics/rank1.csv sleep 600`) still holds the lock on rank 1's metrics file. Process-group timeout 60 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p metrics
( exec -a metrics-exporter flock metrics/rank1.csv sleep 600 ) & stale=$!
sleep 1
bash "$HERE"/stallwatch.sh > stallwatch.log 2>&1 & wd=$!
timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 3 qc_train.py --rows 3000 --epochs 2 --sleep 0.05 \
  --metrics-lock 'metrics/rank{rank}.csv' --pg-timeout 60 > console.log 2>&1
rc torchrun $?
sleep 3; kill $wd $stale 2>/dev/null; wait
