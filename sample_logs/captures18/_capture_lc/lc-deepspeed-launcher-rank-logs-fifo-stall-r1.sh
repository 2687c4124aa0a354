#!/bin/bash
# DeepSpeed's own launcher on CPU: `deepspeed --num_gpus 2 --enable_each_rank_log rank_logs lc_train.py ...`
# (DeepSpeed picks its CPU accelerator; the script itself uses torch.distributed gloo with the env the launcher sets).
# Layout: console.log = the deepspeed runner + launch.py lines; rank_logs/ = DeepSpeed's per-rank files (the
# launcher's --enable_each_rank_log: each rank's stdout+stderr). Process-group timeout 20 s.
# Planted: at step 5 rank 1 reads a "throughput hint" from the named pipe run/throughput.fifo, whose writer (a
# monitoring sidecar) is not running: the open() blocks forever, rank 1 stops making progress.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p run && mkfifo run/throughput.fifo
timeout -s TERM 150 nice $V/deepspeed --num_gpus 2 --master_port 29533 --enable_each_rank_log rank_logs lc_train.py \
  --steps 14 --pg-timeout 20 --stall-fifo run/throughput.fifo --stall-rank 1 --stall-step 5 > console.log 2>&1
rc deepspeed $?
