#!/bin/bash
# First a short earlier run (1 process, --hidden 128) writes ckpt/last.pt. Then the real job resumes from it with the
# default model width (--hidden 64): python bg_train.py --nprocs 3 --resume ckpt/last.pt
# (torch.multiprocessing.spawn, 3 ranks, logging to the console): every rank's load_state_dict raises size mismatch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 3 --rows 2048 > prep.log
mkdir -p ckpt
$PY bg_train.py --nprocs 1 --data data --hidden 128 --steps 64 --save ckpt/last.pt > earlier_run.log 2>&1
$PY bg_train.py --nprocs 3 --data data --resume ckpt/last.pt --steps 300 --log-every 20 --pg-timeout 60 > console.log 2>&1
rc python $?
