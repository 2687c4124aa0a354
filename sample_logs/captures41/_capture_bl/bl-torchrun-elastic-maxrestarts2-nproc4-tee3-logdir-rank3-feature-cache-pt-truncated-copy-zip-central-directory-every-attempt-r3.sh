#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --max-restarts 2 --tee 3 --log-dir logs bl_train.py --feature-cache cache:
# 4 ranks, each loads its precomputed feature file cache/features_rank<R>.pt (torch.save). The cache was copied from
# another box and the copy of features_rank3.pt stopped part-way (first 40% of the bytes): rank 3's torch.load fails
# on every attempt; the elastic agent restarts the worker group twice and then gives up.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 4 --rows 1024 > prep.log
$PY bl_featurize.py --data data --out cache --ranks 4 >> prep.log
sz=$(stat -c %s cache/features_rank3.pt); head -c $((sz * 4 / 10)) cache/features_rank3.pt > cache/part && mv cache/part cache/features_rank3.pt
torchrun --standalone --nproc-per-node 4 --max-restarts 2 --tee 3 --log-dir logs bl_train.py --data data \
  --feature-cache cache --steps 200 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
