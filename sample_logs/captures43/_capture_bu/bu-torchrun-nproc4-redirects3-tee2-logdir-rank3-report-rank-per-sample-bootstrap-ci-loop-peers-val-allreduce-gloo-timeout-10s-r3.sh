#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --redirects 3 --tee 2 --log-dir logs bu_train.py --eval --report-rank 3
# --bootstrap 12000 --pg-timeout 10: after training, rank 3 (the run's designated report rank) writes a per-sample
# eval report with bootstrap confidence intervals computed in a pure-Python loop (12000 rounds x 128 samples of
# tensor indexing) before it joins the val-accuracy all-reduce; ranks 0-2 wait in that all-reduce and hit the
# 10 s gloo timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 4 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 4 --redirects 3 --tee 2 --log-dir logs bu_train.py --data data --epochs 3 --log-every 16 --eval --report-rank 3 --bootstrap 12000 --pg-timeout 10 > console.log 2>&1
rc torchrun $?
