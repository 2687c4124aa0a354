#!/bin/bash
# torch.multiprocessing.spawn(nprocs=3) inside am_train.py, logging module to one console, checkpoint each epoch.
# Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 3 --rows 256 > prep.log
$PY am_train.py --data data --nprocs 3 --epochs 4 --ckpt ckpt > console.log 2>&1
rc spawn $?
