#!/bin/bash
# python bp_train.py --nprocs 3 --style print --debug-high-loss 4.0: torch.multiprocessing.spawn, 3 ranks. A debugging
# aid was left in the loop: "if loss > 4.0: breakpoint()". Rank 1's shard has features in a 40x wider range (raw, unnormalised export), so its
# loss crosses 4.0; pdb starts in the spawned child whose stdin is /dev/null, reads EOF and quits: bdb.BdbQuit on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 3 --rows 512 --scale-shard 1 --scale 40 > prep.log
$PY bp_train.py --nprocs 3 --master-port 29767 --data data --style print --debug-high-loss 4.0 --epochs 3 --log-every 8 > console.log 2>&1
rc python $?
