#!/bin/bash
# Two "nodes" (UTS namespaces ml-a03 / ml-a04, same loopback network), each running
# torchrun --nnodes 2 --nproc-per-node N --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 4410 bx_train.py;
# each node's console in <hostname>/console.log. The job is laid out for 4 ranks (2 per node, data in 4 shards), but
# node ml-a04's launch line says --nproc-per-node 4 (copied from a 4-slot box): the c10d rendezvous accepts the
# heterogeneous nodes, the world becomes 6 (ranks 2-5 on ml-a04), and ranks 4 and 5 find no shard_04/shard_05.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 4 --rows 512 > prep.log
L="torchrun --nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 4410"
T="bx_train.py --data data --log-format plain --epochs 3 --log-every 8 --pg-timeout 30 --eval"
unshare -u sh -c "hostname ml-a03; mkdir -p ml-a03; exec $L --nproc-per-node 2 $T > ml-a03/console.log 2>&1" & A=$!
sleep 2
unshare -u sh -c "hostname ml-a04; mkdir -p ml-a04; exec $L --nproc-per-node 4 $T > ml-a04/console.log 2>&1" & B=$!
wait $B; rc ml-a04 $?
wait $A; rc ml-a03 $?
