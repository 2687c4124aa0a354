#!/bin/bash
# torch.multiprocessing.spawn(nprocs=4) inside ap_train.py, print-style logging to one console. Shard 1 has only 20
# rows (fewer than one batch of 32); the trainer's shard guard calls sys.exit(3) without printing anything (an old
# "fail fast" convention of the codebase). mp.spawn sees process 1 exit with code 3 and terminates the others.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 4 --rows 256,20,256,256 > prep.log
$PY ap_train.py --data data --nprocs 4 --epochs 3 --log-style print --pg-timeout 60 > console.log 2>&1
rc spawn $?
