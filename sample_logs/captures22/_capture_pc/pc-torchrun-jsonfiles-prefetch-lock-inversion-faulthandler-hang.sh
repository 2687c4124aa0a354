#!/bin/bash
# torchrun --standalone --nproc-per-node 3; console to console.log, each rank also writes JSON records to
# logs/train-rank<R>.jsonl (dictConfig FileHandler with a rank filter). Ranks register faulthandler on SIGTERM.
# Planted: the trainer's background prefetch thread takes q_lock then stats_lock; the main loop's next() takes
# stats_lock then q_lock (lock-order inversion, a real race) and the thread takes stats_lock only at the end of a
# pass over the local shard; rank 1 got the short shard (1500 rows, others 4000). pg timeout 20 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY pc_make_data.py data 3 4000
$PY pc_make_data.py data1 2 1500; mv data1/shard-00001.jsonl data/; rm -r data1
mkdir -p logs
timeout -s TERM 120 nice torchrun --standalone --nproc-per-node 3 pc_train.py --data data --steps 400 --sleep 0.0 \
  --prefetch --faulthandler --pg-timeout 20 --fmt json --logfile 'logs/train-rank{rank}.jsonl' > console.log 2>&1
rc torchrun $?
