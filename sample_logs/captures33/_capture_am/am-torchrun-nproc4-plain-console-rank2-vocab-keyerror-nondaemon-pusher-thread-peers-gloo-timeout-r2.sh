#!/bin/bash
# torchrun --nproc-per-node 4 (standalone), one console (stdout+stderr of torchrun). Shard 2 holds one record whose
# label name is not in classes.txt -> KeyError on rank 2 mid-epoch; a non-daemon metrics-pusher thread keeps rank 2's
# interpreter alive (its stop event is only set on the normal path), so peers block in the DDP allreduce until the
# 30 s gloo timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 4 --rows 256 --extra-label-shard 2 > prep.log
torchrun --standalone --nproc-per-node 4 am_train.py --data data --epochs 2 --pg-timeout 30 --metrics-pusher > console.log 2>&1
rc torchrun $?
