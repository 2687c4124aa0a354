#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --style print --epochs 3 --sched onecycle:
# 2 ranks, DDP over gloo, epoch loop over a DataLoader (drop_last=False). OneCycleLR's total_steps is computed as
# epochs * (len(dataset) // batch_size) = 3 * 31 = 93, but the loader yields 32 batches per epoch (last one partial):
# scheduler.step() number 94 raises ValueError on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 2 --rows 1000 > prep.log
torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --data data --style print --epochs 3 \
  --sched onecycle --lr 0.1 --log-every 10 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
