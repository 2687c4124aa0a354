#!/bin/bash
# accelerate launch --multi_gpu --num_processes 2 (MULTI_CPU + gloo), one console; a long run (40 epochs, state saved
# every 16 steps). The console is copied 25 s after the start while the job is still training (snapshot); the job is
# then stopped (the stop is not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 2 --rows 256 > prep.log
setsid accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29801 at_acc.py --data data --epochs 40 --width 256 --save-every 16 --output-dir out \
  --step-sleep 0.15 > run.console 2>&1 & P=$!
sleep 25; mkdir -p snapshot; cp run.console snapshot/console.log
kill -TERM -- -$P; wait $P; rc accelerate $?
