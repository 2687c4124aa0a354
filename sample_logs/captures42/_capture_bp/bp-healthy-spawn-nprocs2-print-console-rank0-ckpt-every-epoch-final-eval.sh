#!/bin/bash
# python bp_train.py --nprocs 2: torch.multiprocessing.spawn, 2 ranks, DDP over gloo, print-style lines, rank 0 saves a
# checkpoint every epoch, final eval. Runs to the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 2 --rows 768 > prep.log
$PY bp_train.py --nprocs 2 --master-port 29761 --data data --style print --epochs 4 --log-every 10 --ckpt-dir ckpt --eval > console.log 2>&1
rc python $?
