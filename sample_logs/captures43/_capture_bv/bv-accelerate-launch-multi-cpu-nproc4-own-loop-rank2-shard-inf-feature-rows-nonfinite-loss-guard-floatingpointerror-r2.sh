#!/bin/bash
# accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no bv_acc.py
# (torchrun underneath; Accelerator(cpu=True): MULTI_CPU + gloo): own Accelerate loop on per-rank shards with a non-finite-loss guard. Rank 2's
# shard has 3 rows whose feature 3 overflowed to inf at export (bv_prep.py --inf-rows 2:3); the first batch of rank 2
# that holds one gives a NaN loss and the guard raises FloatingPointError on rank 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 4 --rows 2048 --inf-rows 2:3 > prep.log
accelerate launch --multi_gpu --num_processes 4 --num_machines 1 --mixed_precision no --dynamo_backend no \
  bv_acc.py --epochs 3 > console.log 2>&1
rc accelerate $?
