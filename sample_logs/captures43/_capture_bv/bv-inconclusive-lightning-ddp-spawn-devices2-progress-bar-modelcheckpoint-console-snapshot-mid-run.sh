#!/bin/bash
# python bv_pl.py --devices 2 --strategy ddp_spawn --max-epochs 40 --ckpt --progress --step-sleep 0.03: Lightning
# DDP-spawn on CPU, 2 ranks, ModelCheckpoint, one console. The console was copied (snapshot/console.log) 40 s after
# the start while the job was still training; then the job's process group was stopped with SIGKILL. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 2 --rows 2048 > prep.log
setsid $PY bv_pl.py --devices 2 --strategy ddp_spawn --max-epochs 40 --ckpt --progress --step-sleep 0.03 > console.log 2>&1 &
pid=$!
sleep 40; mkdir -p snapshot; cp console.log snapshot/console.log
kill -KILL -- -$pid; wait $pid
rc python $?
