#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
# earlier runs in the same output dir: a --hidden 128 run (all three shards written), then the --hidden 256 run whose
# rank-1 shard write went to another dir (ACC_SHARD_DIR typo in its old launcher) -> ckpt/step_120/optim_rank1.pt is
# the 128-wide one.
accelerate launch --multi_gpu --num_processes 3 --main_process_port 29640 ag_acc.py --hidden 128 --steps 120 > prev_run_h128.log 2>&1
mv ckpt/step_120/optim_rank1.pt /tmp/agacc_r1.pt
accelerate launch --multi_gpu --num_processes 3 --main_process_port 29640 ag_acc.py --hidden 256 --steps 120 > prev_run_h256.log 2>&1
mv /tmp/agacc_r1.pt ckpt/step_120/optim_rank1.pt
accelerate launch --multi_gpu --num_processes 3 --main_process_port 29640 ag_acc.py --hidden 256 --steps 240 \
  --resume ckpt/step_120 > train.log 2>&1
rc accelerate $?
