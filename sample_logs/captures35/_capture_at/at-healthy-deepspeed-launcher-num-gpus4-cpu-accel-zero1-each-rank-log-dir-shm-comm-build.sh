#!/bin/bash
# DeepSpeed launcher: `deepspeed --num_gpus 4 --master_port 29791 --enable_each_rank_log ranklogs at_ds.py --deepspeed
# --deepspeed_config at_ds_config.json` (no GPU: DeepSpeed's CPU accelerator, gloo backend, ZeRO stage 1, AdamW).
# Launcher console in console.log, each rank's stdout/stderr in ranklogs/ (written by the launcher). DeepSpeed
# JIT-builds its shm comm op on first use. Healthy run: 3 epochs, the usual warnings.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export PATH=/home/user/capAC/dspkgs/bin:$PATH PYTHONPATH=/home/user/capAC/dspkgs
$PY at_prep.py --out data --shards 4 --rows 512 > prep.log
deepspeed --num_gpus 4 --master_port 29791 --enable_each_rank_log ranklogs at_ds.py --data data --epochs 3 \
  --deepspeed --deepspeed_config at_ds_config.json > console.log 2>&1
rc deepspeed $?
