#!/bin/bash
# python bp_train.py --nprocs 3 --aux-decoder: torch.multiprocessing.spawn, 3 ranks, logging.basicConfig defaults. The
# model keeps a reconstruction 'decoder' layer (from a pretraining variant) that forward() never calls; DDP is built
# with the default find_unused_parameters=False, so the second iteration raises "Expected to have finished reduction
# in the prior iteration" on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 3 --rows 512 > prep.log
$PY bp_train.py --nprocs 3 --master-port 29763 --data data --aux-decoder --epochs 3 --log-every 8 > console.log 2>&1
rc python $?
