#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames gpu-n07 / gpu-n08, same loopback network), each running
# torchrun --nnodes 2 --nproc-per-node 2 --node-rank R --master-addr 127.0.0.1 --master-port 29400 --rdzv-conf timeout=30
# bh_train.py --style print; each node's console in <hostname>/console.log. Node b's launch line was copied from node a's
# and still says --node-rank 0: both agents think they host the static rendezvous store.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 4 --rows 2048 > prep.log
L="torchrun --nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29400 --rdzv-conf timeout=30 bh_train.py --style print --data data --steps 300 --log-every 25 --pg-timeout 60 --step-sleep 0.01"
unshare -u sh -c "hostname gpu-n07; mkdir -p \$(hostname); exec $L --node-rank 0 > \$(hostname)/console.log 2>&1" & A=$!
sleep 4
unshare -u sh -c "hostname gpu-n08; mkdir -p \$(hostname); exec $L --node-rank 0 > \$(hostname)/console.log 2>&1" & B=$!
wait $B; rc gpu-n08 $?
wait $A; rc gpu-n07 $?
