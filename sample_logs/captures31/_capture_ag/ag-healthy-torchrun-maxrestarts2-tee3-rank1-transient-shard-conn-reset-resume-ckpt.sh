#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --standalone --nproc-per-node 2 --max-restarts 2 --tee 3 ag_train.py --epochs 3 --steps 30 --log-every 10 \
  --ckpt-every 1 --resume --shard-url-rank 1 --shard-url-step 47 --final-eval > console.log 2>&1
rc torchrun $?
