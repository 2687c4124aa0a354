#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 1 --log-dir logs bu_train.py --style fmt --ckpt-dir ckpt
# --resume --epochs 6 --eval: resumes ckpt/last.pt written by an earlier 3-epoch run of the same job (epochs 0-2,
# not captured) and trains epochs 3-5 (stdout, i.e. the fmt logging, teed to the console). Runs to the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 3 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 3 bu_train.py --data data --epochs 3 --ckpt-dir ckpt > prev_run.log 2>&1
torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 1 --log-dir logs bu_train.py --data data --style fmt --epochs 6 --log-every 16 --ckpt-dir ckpt --resume --eval > console.log 2>&1
rc torchrun $?
