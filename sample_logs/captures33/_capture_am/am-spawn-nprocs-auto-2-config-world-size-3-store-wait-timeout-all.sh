#!/bin/bash
# torch.multiprocessing.spawn launcher inside am_train.py (one console): nprocs = number of local devices (2 CPUs
# here) but the run config carries world_size: 3 (copied from a 3-worker box) -> both spawned ranks wait in the
# TCPStore for a third client until the 30 s timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 3 --rows 256 > prep.log
cat > run.yaml <<'Y'
world_size: 3
epochs: 2
lr: 0.05
Y
$PY am_train.py --data data --nprocs $(nproc) --world-size $(awk '/world_size/{print $2}' run.yaml) --epochs 2 --pg-timeout 30 --log-style print > console.log 2>&1
rc spawn $?
