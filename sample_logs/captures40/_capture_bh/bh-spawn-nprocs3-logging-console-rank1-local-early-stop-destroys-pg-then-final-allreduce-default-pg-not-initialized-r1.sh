#!/bin/bash
# python bh_train.py --nprocs 3 --early-stop 2 --eval-every 25 (torch.multiprocessing.spawn, DDP over gloo, logging
# on the console). Early stopping is decided per rank on that rank's own held-out split (not synchronised); when it
# fires, the rank calls dist.destroy_process_group() and leaves the loop, then reaches the final all_reduce of the
# best held-out loss with no process group. Shard 1 has 35% flipped labels so its held-out loss plateaus first.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 2048 --label-noise-shard 1 > prep.log
$PY bh_train.py --nprocs 3 --data data --steps 600 --early-stop 2 --eval-every 25 --log-every 25 --pg-timeout 60 \
  --step-sleep 0.01 > console.log 2>&1
rc python $?
