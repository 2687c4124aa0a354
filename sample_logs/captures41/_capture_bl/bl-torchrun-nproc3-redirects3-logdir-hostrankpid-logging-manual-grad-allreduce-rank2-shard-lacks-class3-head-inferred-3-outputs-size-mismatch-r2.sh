#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bl_train.py --grad-sync manual
# --log-format hostrankpid: 3 ranks, no DDP wrapper: every gradient is all_reduce'd by hand after backward. The head
# size is inferred from the labels of each rank's shard (--classes 0); rank 2's shard was filtered and holds no row
# of class 3, so rank 2 builds a 3-output head while ranks 0/1 build 4 outputs: the last gradient all_reduce gets
# tensors of different sizes.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 3 --rows 1024 --drop-class-shard 2 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bl_train.py --data data --grad-sync manual \
  --log-format hostrankpid --steps 150 --log-every 20 --pg-timeout 30 > console.log 2>&1
rc torchrun $?
