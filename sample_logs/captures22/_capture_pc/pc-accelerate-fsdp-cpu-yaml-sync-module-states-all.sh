#!/bin/bash
# `accelerate launch --config_file fsdp_cpu_sync.yaml` (distributed_type FSDP, use_cpu true, num_processes 2,
# FULL_SHARD, size-based wrap, fsdp_sync_module_states true), console to train.out.
# Planted: nothing beyond the config as written (sync_module_states with a CPU run).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 nice accelerate launch --config_file fsdp_cpu_sync.yaml --main_process_port 29955 pc_acc_fsdp.py \
  --steps 300 --sleep 0.2 > train.out 2>&1
rc accelerate $?
