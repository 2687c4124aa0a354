#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --tee 3 (no --log-dir) bp_train.py --style tqdm: 4 ranks, DDP over gloo;
# rank 0 shows a tqdm bar on stderr, ranks 1-3 log through logging.basicConfig (default format). 3 epochs, final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 4 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 4 --tee 3 bp_train.py --data data --style tqdm --epochs 3 --log-every 8 --eval > console.log 2>&1
rc torchrun $?
