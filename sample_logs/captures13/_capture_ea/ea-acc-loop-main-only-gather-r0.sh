#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 --main_process_port 29791 (flags, no config file) running a custom
# accelerate loop (ea_acc_loop.py: Accelerator(cpu=True), gloo, 25 s process-group timeout); console.log = the
# launcher's console.
# Planted: the evaluation's gather_for_metrics sits inside `if accelerator.is_main_process:` -- only rank 0 enters
# that collective at step 10; ranks 1, 2 go on to step 11's DDP gradient all-reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 100 nice $V/accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no \
  --dynamo_backend no --main_process_port 29791 ea_acc_loop.py --steps 30 --eval-every 10 --pg-timeout 25 \
  --eval-main-only > console.log 2>&1
rc launcher $?
