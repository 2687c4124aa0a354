#!/bin/bash
# `accelerate launch --multi_gpu --num_processes 2 --num_machines 1` on a CPU host (gloo,
# Accelerator(cpu=True, gradient_accumulation_steps=4)), a plain accelerate training loop with acc.accumulate(); console.log = everything printed. Nothing planted.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 170 nice $V/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29697 \
  --mixed_precision no --dynamo_backend no nc_acc_gradaccum.py > console.log 2>&1
rc accelerate $?
