#!/bin/bash
# accelerate launch --multi_gpu --num_processes 2 (MULTI_CPU, gloo) bg_acc.py --epochs 3: tqdm on the main process,
# accelerate.logging, validation with gather_for_metrics each epoch, final model saved. No fault planted.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 2 --rows 3072 > prep.log
for r in 00 01; do mv data/shard_$r.npz data/train_$r.npz; done
accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29841 bg_acc.py --epochs 3 > console.log 2>&1
rc accelerate $?
