#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --tee 3 (no --log-dir) bx_train.py --log-format logfmt: 2 ranks, DDP over
# gloo, key=value lines, step lines without a stated total. ~20 s in, console.log is copied to snapshot/; the job is
# then stopped (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 2 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 2 --tee 3 bx_train.py --data data --log-format logfmt --epochs 100000 \
  --log-every 16 --step-sleep 0.02 --pg-timeout 60 > console.log 2>&1 & T=$!
sleep 20; mkdir -p snapshot; cp console.log snapshot/
kill $T; wait $T; rc torchrun $?
