#!/bin/bash
# torch.multiprocessing.spawn(nprocs=3) inside at_train.py; one console, print-style lines ([rankN] prefix). Each rank
# reads its shard through a DataLoader with 2 worker processes; 3 epochs, checkpoint each epoch, final evaluation,
# barrier, destroy_process_group. Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 3 --rows 256 > prep.log
$PY at_train.py --data data --nprocs 3 --epochs 3 --workers 2 --log-style print --eval --ckpt ckpt --pg-timeout 60 \
  > console.log 2>&1
rc spawn $?
