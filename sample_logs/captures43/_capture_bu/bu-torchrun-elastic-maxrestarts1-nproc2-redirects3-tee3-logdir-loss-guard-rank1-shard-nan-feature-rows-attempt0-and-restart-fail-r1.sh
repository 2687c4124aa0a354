#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --max-restarts 1 --redirects 3 --tee 3 --log-dir logs bu_train.py
# --loss-guard --no-shuffle --ckpt-dir ckpt --resume: elastic job with one restart allowed. Rank 1's shard
# (shard_01.npz) holds 5 rows with a missing (nan) feature; the trainer's loss guard raises FloatingPointError on
# the first batch that contains one. The restart re-runs from scratch (no checkpoint was written yet) and fails the
# same way; the agent gives up after max_restarts=1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 2 --rows 512 --nan-rows-shard 1 > prep.log
torchrun --standalone --nproc-per-node 2 --max-restarts 1 --redirects 3 --tee 3 --log-dir logs bu_train.py --data data --epochs 4 --log-every 8 --loss-guard --no-shuffle --ckpt-dir ckpt --resume --pg-timeout 30 > console.log 2>&1
rc torchrun $?
