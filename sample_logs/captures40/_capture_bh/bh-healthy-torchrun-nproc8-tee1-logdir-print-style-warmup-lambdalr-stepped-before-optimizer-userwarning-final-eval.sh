#!/bin/bash
# torchrun --standalone --nproc-per-node 8 --tee 1 --log-dir logs bh_train.py --style print --warmup-sched --eval-after
# (8 ranks on this 2-CPU box; stdout tee'd to the console with [defaultN]: prefixes and into logs/, stderr only on the
# console). The warmup LambdaLR is stepped at the top of each step, before the first optimizer.step(): every rank
# prints PyTorch's lr_scheduler UserWarning once. The run trains 160 steps, evaluates and exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 8 --rows 1024 > prep.log
torchrun --standalone --nproc-per-node 8 --tee 1 --log-dir logs bh_train.py --style print --data data --warmup-sched \
  --eval-after --steps 160 --log-every 40 --pg-timeout 90 > console.log 2>&1
rc torchrun $?
