#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 (console: agent + workers' output prefixed; the same
# output per rank under the --log-dir tree). Each rank holds back 20% of its own shard as validation data and the
# trainer's early stopping (patience 2) is decided per rank on that local holdout, never synced. Rank 2's holdout labels
# are noise (a bad relabelling batch), its val loss never improves: after epoch 1 it logs "early stopping", leaves the
# loop, destroys its process group and exits 0. Ranks 0 and 1 go on into epoch 2 and block on it in the DDP allreduce (gloo timeout 20 s) and get "Connection closed by peer".
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 3 --rows 320 --noisy-holdout-shard 2 > prep.log
torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 aw_train.py --data data --holdout 0.2 \
  --early-stop-patience 2 --epochs 8 --pg-timeout 20 > console.log 2>&1
rc torchrun $?
