#!/bin/bash
# torchrun --standalone --nproc-per-node 3 bu_train.py --style fmt --eval --class-report (no --log-dir, no --tee: the
# ranks write straight to the shared console). At the end every rank all-reduces per-class support/hit counts built
# with torch.bincount(y_val) (no minlength). Rank 1's val split (val_01.npz) holds no row of class 3, so its support
# tensor has 3 elements while ranks 0 and 2 all-reduce 4: the gloo all-reduce sizes differ across ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 3 --rows 512 --val-drop-class-shard 1 > prep.log
torchrun --standalone --nproc-per-node 3 bu_train.py --data data --style fmt --epochs 3 --log-every 16 --eval --class-report --pg-timeout 30 > console.log 2>&1
rc torchrun $?
