#!/bin/bash
# `python aw_train.py --nprocs 8` = torch.multiprocessing.spawn(nprocs=8), DDP over gloo, logging module to one
# console (stdout+stderr of the spawn parent). 3 epochs and a final evaluation on val.npz; exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 8 --rows 192 > prep.log
python aw_train.py --data data --nprocs 8 --epochs 3 --eval --step-sleep 0.02 --pg-timeout 60 > console.log 2>&1
rc python $?
