#!/bin/bash
# python bl_train.py --nprocs 2 --style print --accum 2 --sched cosine --eval-all: torch.multiprocessing.spawn,
# 2 ranks, DDP over gloo with gradient accumulation (no_sync on odd steps), cosine lr, final val accuracy. Healthy.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 2 --rows 1024 > prep.log
$PY bl_train.py --nprocs 2 --master-port 29744 --data data --style print --accum 2 --sched cosine --eval-all \
  --steps 200 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc spawn $?
