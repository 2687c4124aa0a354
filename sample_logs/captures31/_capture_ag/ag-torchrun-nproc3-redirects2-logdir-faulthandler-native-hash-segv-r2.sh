#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --standalone --nproc-per-node 3 --redirects 2 --log-dir logs ag_train.py --epochs 2 --steps 40 \
  --hash-ext-rank 2 --hash-ext-step 52 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
