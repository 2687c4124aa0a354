#!/bin/bash
# `nohup torchrun --standalone --nproc-per-node 4 bd_train.py ... &` typed at an interactive terminal (a pty made with
# util-linux `script`), so torchrun's console goes to ./nohup.out; every rank also logs through Python logging to its
# own FileHandler in the shared dir logs/ (rank 0 also to the console). Each rank appends per-step metrics to
# metrics/rank_<r>.jsonl at the end of each epoch (200 steps) and then waits in dist.barrier() (gloo, 30 s timeout).
# MetricsWriter.flush() holds a non-reentrant threading.Lock and calls rotate() once the file passes 64 KiB, and
# rotate() takes the same lock again: a self-deadlock. metrics/rank_2.jsonl was left over (~40 KB) from an earlier run
# in the same directory, so rank 2 crosses the limit first, at the end of epoch 2 (step 600 of 1000), and hangs in
# its own flush; ranks 0, 1, 3 time out in the barrier; torchrun then SIGTERMs rank 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 4 --rows 6400 > prep.log
mkdir -p metrics
$PY -c "
import json
with open('metrics/rank_2.jsonl','w') as f:
    for i in range(800): f.write(json.dumps({'step': i+1, 'loss': 1.2345, 't': 12.345})+'\n')
"
script -qfc "nohup torchrun --standalone --nproc-per-node 4 bd_train.py --data data --steps 1000 --metrics-dir metrics \
  --log-every 50 --pg-timeout 30 --step-sleep 0.005 & echo \$! > torchrun.pid; wait" term.log < /dev/null > /dev/null
P=$(cat torchrun.pid); while [ -e /proc/$P ]; do sleep 1; done
rc torchrun "see nohup.out"
