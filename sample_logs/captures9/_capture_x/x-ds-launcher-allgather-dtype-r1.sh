#!/bin/bash
# deepspeed launcher (--num_gpus 3, CPU accelerator), 3 workers running the plain gloo trainer;
# rank 1 builds its all_gather stats tensor in float64 at step 6 (the others float32). Console = the launcher's.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $V/deepspeed --num_gpus 3 --master_addr 127.0.0.1 --master_port 29911 x_train.py \
  --steps 12 --pg-timeout 30 --fault allgather_dtype --fault-rank 1 --fault-step 6 > console.log 2>&1
rc launcher $?
