#!/bin/bash
# Two "nodes" (UTS + mount namespaces, hostnames trn-a / trn-b), one `torchrun --nnodes 2 --nproc-per-node 2
# --rdzv-backend c10d --rdzv-endpoint trn-a:29731` per node. Logs per node in a directory named after the host:
# <host>/torchrun.log (the agent's console) and <host>/ranklogs/rankN.log (the trainer's per-rank log files).
# Each node checkpoints to its node-local scratch <host>/ckpt (rank 0 the model, every rank its optimizer/RNG state).
# On trn-b the scratch volume is read-only (remounted ro, as after a filesystem error): at the end of epoch 0 the
# saves of ranks 2 and 3 fail; trn-b's agent stops; trn-a's ranks wait in the next epoch's allreduce and fail.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p trn-a/ckpt trn-b/ckpt
node() {  # host [setup]
  unshare -u -m bash -c "hostname $1; $2 exec torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint trn-a:29731 --rdzv-id ckpt-run-88 at_train.py --data data --epochs 3 --ckpt $1/ckpt --ckpt-mb 8 \
    --log-dir $1/ranklogs --pg-timeout 30"
}
node trn-a "" > trn-a/torchrun.log 2>&1 & A=$!
sleep 1
node trn-b "mount --bind trn-b/ckpt trn-b/ckpt && mount -o remount,bind,ro trn-b/ckpt &&" > trn-b/torchrun.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
