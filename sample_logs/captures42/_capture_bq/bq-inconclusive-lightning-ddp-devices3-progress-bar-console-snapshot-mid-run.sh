#!/bin/bash
# python bq_pl.py --devices 3 --strategy ddp --max-epochs 30 --progress --ckpt: Lightning DDP on CPU, 3 ranks, one
# console. The console was copied (snapshot/console.log) 45 s after the start while the job was still training, then
# the job was stopped (SIGKILL to its process group; Lightning traps SIGTERM). No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bq_prep.py --out data --shards 3 --rows 2048 > prep.log
setsid $PY bq_pl.py --devices 3 --strategy ddp --max-epochs 30 --progress --ckpt --step-sleep 0.03 > console.log 2>&1 &
pid=$!
sleep 45; mkdir -p snapshot; cp console.log snapshot/console.log
kill -KILL -- -$pid; wait $pid
rc python $?
