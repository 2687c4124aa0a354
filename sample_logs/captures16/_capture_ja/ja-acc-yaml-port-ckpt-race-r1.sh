#!/bin/bash
# accelerate launch with a YAML config (distributed_type MULTI_GPU, 2 processes: the torchrun code path; the workers use gloo on CPU) and --main_process_port 29811. asctime logging on
# stderr. console.log = accelerate's console (launcher + both workers).
# Planted: a weight-sync step after step 6: rank 0 saves ckpt/shared-6.pt, streamed in 256 KiB chunks (as to a network
# file system), and the other rank polls only for the file to *exist* (no barrier, no rename-on-complete) and loads it
# at once: it reads a partly written zip archive.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE"/acc_2proc.yaml .
timeout -s TERM 120 nice $V/accelerate launch --config_file acc_2proc.yaml --main_process_port 29811 \
  ja_train.py --steps 12 --hidden 16384 --ckpt-share 6 --pg-timeout 30 > console.log 2>&1
rc accelerate $?
