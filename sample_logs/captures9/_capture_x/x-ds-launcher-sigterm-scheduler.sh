#!/bin/bash
# deepspeed launcher (--num_gpus 2, CPU accelerator) running the DeepSpeed engine trainer for 400 steps, in its own
# session (setsid); console.log = the launcher's console (workers' output included). A "scheduler" (this script)
# sends SIGTERM to the job's whole process group 25 s after the start (wall-time limit / preemption), as Slurm
# does to a job step.
. "$(dirname "$(readlink -f "$0")")/common.sh"
setsid nice $V/deepspeed --num_gpus 2 --master_addr 127.0.0.1 --master_port 29921 x_ds.py --config ds_config.json \
  --steps 400 --sleep 0.2 > console.log 2>&1 &
L=$!
sleep 25; kill -TERM -- -$L; echo "SIGTERM to process group $L"
wait $L; rc launcher $?
sleep 3; pgrep -g $L && echo "LEFT OVER processes in group $L"
