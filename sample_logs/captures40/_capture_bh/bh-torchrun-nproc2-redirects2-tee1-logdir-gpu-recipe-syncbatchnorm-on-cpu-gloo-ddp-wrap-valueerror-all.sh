#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bh_train.py --norm syncbn
# (stdout tee'd to the console and logs/, stderr only into logs/). The recipe comes from the GPU cluster and converts
# BatchNorm to SyncBatchNorm; on this CPU box with gloo, DDP's wrapper refuses SyncBatchNorm on a CPU module on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 2 --rows 2048 > prep.log
torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bh_train.py --data data --norm syncbn \
  --steps 300 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
