#!/bin/bash
# `accelerate launch --config_file fsdp_cpu.yaml` (distributed_type FSDP, use_cpu true, num_processes 2,
# sync_module_states false), console to train.out; 25 s after the start a copy of train.out is taken while the job
# is still running (snapshot/train.out = what a user pulled off the machine); the job then runs to its end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p snapshot
( sleep 25; cp train.out snapshot/train.out; echo "snapshot taken $(date +%T)" ) &
timeout -s TERM 120 nice accelerate launch --config_file fsdp_cpu.yaml --main_process_port 29956 pc_acc_fsdp.py \
  --steps 300 --sleep 0.2 > train.out 2>&1
rc accelerate $?
wait
