#!/bin/bash
# accelerate launch --multi_gpu --num_processes 4 (no GPU: accelerate falls back to MULTI_CPU + gloo) (one console). The final evaluation splits the 6-row val set
# contiguously (ceil(6/4)=2 rows a rank) -> rank 3 gets 0 rows and pad_batch() loops forever extending an empty
# list; ranks 0-2 wait in accelerator.wait_for_everyone() (gloo barrier) until the 30 s process-group timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 4 --rows 256 --val-rows 6 > prep.log
accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29561 \
  am_acc.py --data data --epochs 2 --pg-timeout 30 > console.log 2>&1
rc accelerate $?
