#!/bin/bash
# Two "nodes" (UTS namespaces ml-a03 / ml-a04), each running torchrun --nnodes 2 --nproc-per-node 2 --tee 3
# --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29530 --rdzv-id 4512 bx_train.py --log-format rich; each node's console
# in <hostname>/console.log. Labels are copied with torch.tensor(tensor) (UserWarning on every rank). Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 4 --rows 512 > prep.log
export COLUMNS=120
L="torchrun --nnodes 2 --nproc-per-node 2 --tee 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29530 --rdzv-id 4512"
T="bx_train.py --data data --log-format rich --epochs 4 --log-every 16 --pg-timeout 60 --label-tensor-copy --eval"
unshare -u sh -c "hostname ml-a03; mkdir -p ml-a03; exec $L $T > ml-a03/console.log 2>&1" & A=$!
sleep 2
unshare -u sh -c "hostname ml-a04; mkdir -p ml-a04; exec $L $T > ml-a04/console.log 2>&1" & B=$!
wait $B; rc ml-a04 $?
wait $A; rc ml-a03 $?
