#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames cn-a01 / cn-a02), each running
# `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 --master-addr cn-a01 --master-port 29688 --tee 3
#  ../bi_ddp.py --data data --eval-every 50 --val-file data/val.npz` in its own directory; each node's console goes to
# <host>/console.log. 4 ranks, DDP over gloo, Python logging, every rank evaluates on the node-local copy of the
# validation split every 50 steps. The stage-in on cn-a02 wrote an empty val.npz (0 rows; planted), so both ranks
# on cn-a02 (2 and 3) divide by zero in their first evaluation at step 50.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 4 --rows 2048 > prep.log
mkdir -p cn-a01/data cn-a02/data
cp data/shard_00.npz data/shard_01.npz data/val.npz cn-a01/data/
cp data/shard_02.npz data/shard_03.npz cn-a02/data/
$PY -c "import numpy as np; np.savez('cn-a02/data/val.npz', x=np.zeros((0, 16), np.float32), y=np.zeros(0, np.int64))"
node() {  # host node-rank
  (cd $1 && unshare -u bash -c "hostname $1; exec torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 \
    --master-addr cn-a01 --master-port 29688 --tee 3 ../bi_ddp.py --data data --steps 300 --log-every 25 \
    --eval-every 50 --val-file data/val.npz --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1")
}
node cn-a01 0 & A=$!
sleep 2
node cn-a02 1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
