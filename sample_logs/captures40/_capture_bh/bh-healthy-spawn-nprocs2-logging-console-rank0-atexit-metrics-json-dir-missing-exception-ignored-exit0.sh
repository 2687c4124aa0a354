#!/bin/bash
# python bh_train.py --nprocs 2 --eval-after --metrics-file results/metrics.json (torch.multiprocessing.spawn, DDP over
# gloo, logging on the console). Training, eval and the final barrier complete; at interpreter exit rank 0's atexit
# hook writes the metrics JSON into results/, which was never created: Python prints "Exception ignored in atexit
# callback" and the traceback, the process still exits 0 and spawn returns normally (exit 0).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 2 --rows 2048 > prep.log
$PY bh_train.py --nprocs 2 --data data --eval-after --metrics-file results/metrics.json --steps 256 --log-every 32 \
  --pg-timeout 60 > console.log 2>&1
rc python $?
