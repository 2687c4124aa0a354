#!/bin/bash
# torchrun --standalone --nproc-per-node 8 --tee 2 --log-dir logs bl_train.py --log-stream stderr --eval-all:
# 8 ranks, DDP over gloo, Python logging to stderr (teed to the console and logs/), final all-reduced val accuracy.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 8 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 8 --tee 2 --log-dir logs bl_train.py --data data --log-stream stderr \
  --eval-all --steps 60 --log-every 20 --pg-timeout 120 > console.log 2>&1
rc torchrun $?
