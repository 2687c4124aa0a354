#!/bin/bash
# accelerate launch --multi_gpu --num_processes 8 (MULTI_CPU, gloo), one console: HF accelerate loop, 8 ranks each on
# its own shard, accelerator.save_state() after every epoch (plus each rank's data_state_<rank>.pt), a final evaluation
# gathered with gather_for_metrics, "training complete"; exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 8 --rows 192 > prep.log
accelerate launch --multi_gpu --num_processes 8 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29661 ba_acc.py --data data --epochs 3 --final-eval --step-sleep 0.01 > console.log 2>&1
rc accelerate $?
