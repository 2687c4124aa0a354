#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data && python ag_mkdata.py data/train.jsonl 4000 3
setsid python ag_pl.py --strategy ddp --devices 2 --epochs 20 --step-sleep 0.15 --csv --progress > console.log 2>&1 &
P=$!
sleep 40
# snapshot of the job's files while it is still running (what a reader copying them mid-run gets)
mkdir -p snapshot/logs/ag/version_0
cp console.log snapshot/console.log
cp logs/ag/version_0/*.csv logs/ag/version_0/*.yaml snapshot/logs/ag/version_0/ 2>/dev/null
kill -TERM -- -$P; sleep 5; kill -KILL -- -$P 2>/dev/null; wait $P
rc python-killed-after-snapshot $?
