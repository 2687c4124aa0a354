#!/bin/bash
# torch.multiprocessing.spawn, 3 processes; each logs only to its own file logs/rank{R}.log (plain format); the
# parent's console gets spawn's report and whatever C++ prints to stderr. Each rank reads a label map from its
# own cache dir; rank 2's cache holds a stale map (8 classes instead of 10), so rank 0's class-weight broadcast
# (10 floats) does not fit rank 2's 8-float buffer.
. "$(dirname "$(readlink -f "$0")")/common.sh"
for r in 0 1 2; do mkdir -p cache/rank$r; seq -f 'class_%g' 0 9 > cache/rank$r/labels.txt; done
seq -f 'class_%g' 0 7 > cache/rank2/labels.txt
MASTER_ADDR=127.0.0.1 MASTER_PORT=29912 nice $PY x_train.py --spawn 3 --no-stderr --log-file 'logs/rank{rank}.log' \
  --labels 'cache/rank{rank}/labels.txt' --steps 10 --pg-timeout 30 > console.log 2>&1
rc launcher $?
