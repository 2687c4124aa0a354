#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --decode-cache dcache --workers 2
# --dl-timeout 20: 2 ranks, DDP over gloo, DataLoader with 2 worker processes reading a per-rank decoded-sample memmap
# guarded by fcntl.lockf. Rank 0's cache exists from an earlier run; rank 1's is missing, so rank 1 builds it under an
# exclusive lockf and (bug in the build path) never unlocks: its workers block taking the shared lock, and the
# DataLoader times out after 20 s on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 2 --rows 1024 > prep.log
mkdir -p dcache; $PY -c "
import numpy as np; d = np.load('data/shard_00.npz'); np.save('dcache/decoded_00.npy', d['x'])"
torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --data data --decode-cache dcache \
  --workers 2 --dl-timeout 20 --steps 150 --log-every 25 --pg-timeout 90 > console.log 2>&1
rc torchrun $?
