#!/bin/bash
# python by_ray.py --mode train --workers 2: ray.train.torch.TorchTrainer (Ray 2.60, gloo on CPU, local cluster
# started by ray.init), one console. Rank 1's shard was re-labelled with a 5-class scheme (by_prep.py
# --extra-class-shard 1: class id 4 present) while the model head has 4 classes: cross_entropy fails on the
# first batch holding a label 4 on that worker.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 2 --rows 1024 --extra-class-shard 1 > prep.log
export RAY_TMPDIR=/tmp/by_ray_$$
$PY by_ray.py --mode train --workers 2 --epochs 4 > console.log 2>&1
rc python $?
