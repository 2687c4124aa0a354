#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames trn-c11 / trn-c12, same loopback network), each running
# torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29510 --rdzv-id 5512
# bl_train.py --log-format hostrankpid --eval-all; each node's console in <hostname>/console.log. Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
grep -q trn-c12 /etc/hosts || echo "127.0.1.2 trn-c12" >> /etc/hosts
$PY bl_prep.py --out data --shards 4 --rows 1024 > prep.log
L="torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29510 --rdzv-id 5512 bl_train.py --data data --log-format hostrankpid --eval-all --steps 150 --log-every 25 --pg-timeout 60"
unshare -u sh -c "hostname trn-c11; mkdir -p \$(hostname); exec $L > \$(hostname)/console.log 2>&1" & A=$!
sleep 2
unshare -u sh -c "hostname trn-c12; mkdir -p \$(hostname); exec $L > \$(hostname)/console.log 2>&1" & B=$!
wait $B; rc trn-c12 $?
wait $A; rc trn-c11 $?
