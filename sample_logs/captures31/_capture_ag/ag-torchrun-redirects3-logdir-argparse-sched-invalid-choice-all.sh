#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --standalone --nproc-per-node 2 --redirects 3 --log-dir logs ag_train.py --epochs 3 --steps 40 \
  --sched cosine_warmup --lr 0.1 > console.log 2>&1
rc torchrun $?
