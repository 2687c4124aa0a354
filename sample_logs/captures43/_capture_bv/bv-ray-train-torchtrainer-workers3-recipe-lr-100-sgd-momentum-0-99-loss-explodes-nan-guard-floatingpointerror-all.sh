#!/bin/bash
# python bv_ray_train.py --workers 3 --recipe recipe.json: Ray 2.60 Train TorchTrainer, 3 CPU workers (gloo, DDP via
# prepare_model), one driver console. The recipe was edited to lr 100.0 with SGD momentum 0.99 (a value meant for a
# different setup); the loss blows up within the first few steps and every worker's non-finite-loss check raises
# FloatingPointError at the same step (the DDP replicas hold identical weights).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 3 --rows 2048 > prep.log
echo '{"lr": 100.0, "momentum": 0.99, "batch_size": 32, "epochs": 4}' > recipe.json
$PY bv_ray_train.py --workers 3 --recipe recipe.json > console.log 2>&1
rc python $?
