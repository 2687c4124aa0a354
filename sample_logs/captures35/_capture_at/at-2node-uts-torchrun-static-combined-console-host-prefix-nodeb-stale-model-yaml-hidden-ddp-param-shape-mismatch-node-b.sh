#!/bin/bash
# Two "nodes" (UTS namespaces trn-a / trn-b), static rendezvous: `torchrun --nnodes 2 --node-rank {0,1}
# --nproc-per-node 2 --master-addr trn-a --master-port 29741` per node, each run from its node directory; both
# agents' output goes into ONE console (console.log) with the host prefixed to each line (like pdsh/clush -L).
# Each node reads the model config from its node-local copy conf/model.yaml; trn-b's copy is stale (hidden: 128,
# from before the config moved to hidden: 96). DDP's constructor compares parameter shapes across ranks and fails.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p trn-a/conf trn-b/conf
printf 'model:\n  hidden: 96\n  depth: 2\n' > trn-a/conf/model.yaml
printf 'model:\n  hidden: 128\n  depth: 2\n' > trn-b/conf/model.yaml
: > console.log
node() {  # host node_rank
  unshare -u bash -c "hostname $1; cd $1 && exec torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 \
    --master-addr trn-a --master-port 29741 ../at_train.py --data ../data --config conf/model.yaml --epochs 3 \
    --log-style print --pg-timeout 30" 2>&1 | sed -u "s/^/$1: /" >> console.log
}
node trn-a 0 & A=$!
sleep 1
node trn-b 1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
