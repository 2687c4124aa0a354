#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (no GPU: accelerate falls back to MULTI_CPU + gloo), one console;
# the script logs JSON lines (logging module + JSON formatter). Rank 0 computes inverse-frequency class weights
# from its shard with numpy (float64: torch.from_numpy keeps the dtype) and broadcasts them; ranks 1 and 2 receive
# into torch.empty(4) (float32) -> the broadcast payloads do not match.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 3 --rows 256 > prep.log
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29621 \
  ap_acc.py --data data --epochs 2 --class-weights --pg-timeout 30 > console.log 2>&1
rc accelerate $?
