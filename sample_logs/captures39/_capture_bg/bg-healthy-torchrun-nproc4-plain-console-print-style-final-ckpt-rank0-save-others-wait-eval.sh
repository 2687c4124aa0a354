#!/bin/bash
# torchrun --standalone --nproc-per-node 4 bg_train.py --style print: 4 ranks, DDP over gloo, every rank prints;
# rank 0 saves final.pt, the others wait for it, every rank evaluates it. No fault planted.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 4 --rows 3072 > prep.log
torchrun --standalone --nproc-per-node 4 bg_train.py --style print --data data --steps 300 --log-every 30 \
  --save final.pt --eval-after --pg-timeout 60 > console.log 2>&1
rc torchrun $?
