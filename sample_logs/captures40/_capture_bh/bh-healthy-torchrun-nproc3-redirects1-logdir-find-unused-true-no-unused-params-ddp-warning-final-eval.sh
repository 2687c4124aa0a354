#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bh_train.py --find-unused --eval-after:
# stdout (the training log) goes only into logs/<run>/attempt_0/N/stdout.log, stderr stays on the console. DDP is
# built with find_unused_parameters=True although every parameter is used: each rank prints DDP's warning; the run
# trains 240 steps, evaluates and exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 2048 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bh_train.py --data data --find-unused \
  --eval-after --steps 240 --log-every 30 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
