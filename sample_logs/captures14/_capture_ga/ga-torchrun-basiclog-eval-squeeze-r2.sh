#!/bin/bash
# torchrun --standalone x3; logging.basicConfig() defaults on stderr (`INFO:ga.train:msg`, no rank in the format) and
# a bare logging.FileHandler per rank (logs/rank<R>.log, message only). console.log = agent + all workers' stderr.
# Planted: the validation split gives the last rank the remainder (49 samples -> 16/16/17), so rank 2's last eval
# batch has 1 sample; the eval loop's `.squeeze()` then drops the batch dim and `argmax(dim=1)` fails (under no_grad).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $TR --standalone --nproc-per-node 3 ga_train.py --steps 10 --sleep 0.2 --pg-timeout 30 \
  --log-style basic --log-file 'logs/rank{rank}.log' --eval-every 4 --val-size 49 > console.log 2>&1
rc launcher $?
