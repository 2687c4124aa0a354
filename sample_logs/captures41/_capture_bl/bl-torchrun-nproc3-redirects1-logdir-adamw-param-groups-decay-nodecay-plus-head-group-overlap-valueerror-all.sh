#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bl_train.py --optim adamw: 3 ranks, DDP over
# gloo, logging to stdout (redirected to logs/, stderr stays on the console). The optimizer is built from three param
# groups: weights (decay), biases (no decay) and the head with a 10x lr; the head's weight and bias are also in the
# first two groups, so torch.optim refuses the duplicated parameters on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 3 --rows 1024 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bl_train.py --data data --optim adamw \
  --lr 0.003 --steps 200 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
