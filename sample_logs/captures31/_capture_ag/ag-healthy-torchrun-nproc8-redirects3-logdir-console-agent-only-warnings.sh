#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs ag_train.py --epochs 2 --steps 20 --sleep 0.05 \
  --sched cosine --warn --final-eval > console.log 2>&1
rc torchrun $?
