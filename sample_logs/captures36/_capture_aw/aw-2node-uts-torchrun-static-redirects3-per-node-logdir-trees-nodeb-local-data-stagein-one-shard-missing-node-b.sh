#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames ml-n01 / ml-n02), static rendezvous: one
# `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 --master-addr ml-n01 --master-port 29781 --redirects 3
# --log-dir <host>/logs` per node; each agent's console in <host>/agent.log, the workers' output only in the --log-dir
# tree. Each node reads its shards from node-local scratch <host>/data, staged in by a copy step before the launch.
# On ml-n02 the stage-in copied shard_02.npz but not shard_03.npz (the copy of the second file was lost): rank 3
# (ml-n02, local rank 1) fails with FileNotFoundError; ml-n02's agent stops rank 2; ml-n01's ranks lose their peers.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out shared --shards 4 --rows 256 > prep.log
mkdir -p ml-n01/data ml-n02/data
cp shared/shard_00.npz shared/shard_01.npz shared/val.npz ml-n01/data/
cp shared/shard_02.npz shared/val.npz ml-n02/data/
node() {  # host node-rank
  unshare -u bash -c "hostname $1; exec torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 --master-addr ml-n01 \
    --master-port 29781 --redirects 3 --log-dir $1/logs aw_train.py --data $1/data --epochs 3 --pg-timeout 30"
}
node ml-n01 0 > ml-n01/agent.log 2>&1 & A=$!
sleep 1
node ml-n02 1 > ml-n02/agent.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
