#!/bin/bash
# python -m torch.distributed.launch --use-env --nproc-per-node 3 (the deprecated launcher; env:// init) with
# --master-port 29823. plain print() logging (`[R] LEVEL msg` on stdout). console.log = the launcher's console.
# Planted: the metric accumulator of rank 1 is a numpy array (float64: a leftover of a profiling patch, --np-metrics 1)
# while ranks 0 and 2 keep a float32 torch tensor; every 4 steps all ranks all_reduce [loss_sum, correct, n].
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 nice $PY -m torch.distributed.launch --use-env --nproc-per-node 3 --master-port 29823 \
  ja_train.py --log-style plain --steps 12 --metrics-every 4 --np-metrics 1 --pg-timeout 20 > console.log 2>&1
rc launcher $?
