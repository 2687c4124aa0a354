#!/bin/bash
# accelerate launch --multi_gpu --num_processes 4 (MULTI_CPU, gloo), gradient accumulation 2, one console. The main
# process pushes a loss sample every 4 steps to a metrics endpoint (127.0.0.1:8125) that is not running: each push logs
# an ERROR line "metrics push failed ... Connection refused" and is dropped (best effort). Python/torch/accelerate
# warnings are printed as usual. Training runs all epochs, saves the model and exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 4 --rows 256 > prep.log
accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29801 aw_acc.py --data data --epochs 3 --grad-accum 2 --metrics-sink 127.0.0.1:8125 \
  --step-sleep 0.05 > console.log 2>&1
rc accelerate $?
