#!/bin/bash
# torch.multiprocessing.spawn(nprocs=3) inside ap_train.py; logging module to the console and to per-rank files
# (ranklogs/rankN.log). The trainer skips any batch holding a label not in classes.txt (--skip-unknown); shard 1
# has 3 rows labelled "unknown" in batch 5 -> rank 1 runs one backward (one DDP gradient allreduce) fewer than
# ranks 0 and 2 each epoch: the collectives no longer line up (rank 1 enters the epoch-end loss all_reduce while its
# peers are still in the gradient allreduce of their last step). gloo timeout 30 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 3 --rows 256 --unknown-label-shard 1 > prep.log
$PY ap_train.py --data data --nprocs 3 --epochs 3 --skip-unknown --pg-timeout 30 --log-dir ranklogs > console.log 2>&1
rc spawn $?
