#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --nproc-per-node 3 --log-dir logs --tee 3 ag_train.py --epochs 2 --steps 40 --hidden 256 \
  --comm-hook --grad-stats-rank 1 --bucket-cap-mb 0.004 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
