#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (multi-CPU, gloo) of a custom Accelerator loop, one combined console.
# Fault: the job runs under `ulimit -f 6144` (6 MiB file-size limit, as a login profile on a shared box might set);
# the main process's accelerator.save_state() writes a ~8.5 MiB optimizer file at step 20 and write() fails with
# EFBIG (Python ignores SIGXFSZ) -> torch.save raises on rank 0 (RuntimeError from its C++ stream writer).
. "$(dirname "$(readlink -f "$0")")/common.sh"
ulimit -f 6144
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_port 29561 --mixed_precision no \
  --dynamo_backend no aj_acc.py --hidden 1024 --steps 60 --save-every 20 > console.log 2>&1
rc accelerate $?
