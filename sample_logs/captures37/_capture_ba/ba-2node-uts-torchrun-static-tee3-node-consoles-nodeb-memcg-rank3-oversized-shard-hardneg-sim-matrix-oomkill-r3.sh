#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames trn-07 / trn-08), static rendezvous: one
# `torchrun --nnodes 2 --node-rank {0,1} --nproc-per-node 2 --master-addr trn-07 --master-port 29671 --tee 3` per node,
# each node's console (agent + its workers, prefixed) in <host>/console.log. Node trn-08 runs inside a memory cgroup
# capped at 1100 MiB (as a node/container limit). At the start of each epoch every rank mines hard negatives over its
# own shard (an N x N similarity matrix). Rank 3's shard (trn-08, local rank 1) is an unfiltered export of 16000 rows
# instead of 512: its 16000 x 16000 matrix (~1 GB) pushes the cgroup over its limit and the kernel OOM killer SIGKILLs
# rank 3; trn-08's agent SIGTERMs rank 2; the ranks on trn-07 lose their peers in the first gradient allreduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 4 --rows 512 > prep.log
$PY - <<'PY'
import numpy as np
rng = np.random.default_rng(5); d = np.load("data/shard_03.npz")
x = np.concatenate([d["x"], rng.normal(size=(15488, d["x"].shape[1])).astype(np.float32)])
np.savez("data/shard_03.npz", x=x, y=np.concatenate([d["y"], rng.integers(0, 4, 15488)]))
PY
mkdir -p trn-07 trn-08
CG=/sys/fs/cgroup/memory/node_trn08; mkdir -p $CG; echo $((1100 * 1024 * 1024)) > $CG/memory.limit_in_bytes
node() {  # host node-rank cgroup-tasks-file (/dev/null: none)
  unshare -u bash -c "hostname $1; echo \$\$ > $3; exec torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 \
    --master-addr trn-07 --master-port 29671 --tee 3 ba_train.py --data data --epochs 3 --hard-negatives --log-every 4 \
    --pg-timeout 60"
}
node trn-07 0 /dev/null > trn-07/console.log 2>&1 & A=$!
sleep 1
node trn-08 1 $CG/tasks > trn-08/console.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
cat $CG/memory.failcnt > memcg_failcnt; dmesg 2>/dev/null | tail -12 > trn-08/dmesg.log; rmdir $CG
