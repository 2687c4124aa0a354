#!/bin/bash
# python bp_train.py --nprocs 4 --style tqdm: torch.multiprocessing.spawn, 4 ranks; rank 0 shows a tqdm bar, others
# log with logging.basicConfig defaults. Rank 2's shard was re-exported with 1-based labels (1..4): CrossEntropyLoss
# with 4 classes raises "IndexError: Target 4 is out of bounds." on rank 2 in its first batch holding a 4.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 4 --rows 512 --one-based-shard 2 > prep.log
$PY bp_train.py --nprocs 4 --master-port 29765 --data data --style tqdm --epochs 3 --log-every 8 --pg-timeout 60 > console.log 2>&1
rc python $?
