#!/bin/bash
# torchrun --nnodes 1 --rdzv-backend c10d --rdzv-endpoint localhost:29640 --nproc-per-node 3 --max-restarts 1 --log-dir logs --redirects 3 (per-attempt per-rank
# stdout/stderr files + the agent console). The job starts while the stage-in of shard_02.npz is still writing it
# (in place, half written) -> attempt 0: rank 2 fails to read the truncated npz; the agent restarts the group, by
# then the stage-in is complete, attempt 1 trains to the end. Healthy.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out src_data --shards 3 --rows 256 > prep.log
mkdir -p data; cp src_data/classes.txt src_data/stats.pkl src_data/val.npz src_data/shard_00.npz src_data/shard_01.npz data/
$PY am_stagein.py src_data/shard_02.npz data/shard_02.npz 7 > stagein.log 2>&1 &
torchrun --nnodes 1 --rdzv-backend c10d --rdzv-endpoint localhost:29640 --nproc-per-node 3 --max-restarts 1 --log-dir logs --redirects 3 \
  am_train.py --data data --epochs 3 --ckpt ckpt --init-dir rdzv > console.log 2>&1
rc torchrun $?
wait
