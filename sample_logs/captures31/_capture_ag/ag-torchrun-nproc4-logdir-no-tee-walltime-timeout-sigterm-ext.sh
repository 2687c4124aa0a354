#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
# the job wrapper gives the run a 30 s wall-clock budget (timeout(1) sends SIGTERM to torchrun)
timeout -s TERM 30 torchrun --standalone --nproc-per-node 4 --log-dir logs ag_train.py --epochs 10 --steps 60 \
  --sleep 0.05 --sched step --ckpt-every 1 > console.log 2>&1
rc timeout $?
