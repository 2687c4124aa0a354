#!/bin/bash
# Two "nodes" (UTS namespaces trn-f05 / trn-f06), each running torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend
# c10d --rdzv-endpoint 127.0.0.1:29420 --rdzv-id 6230 --tee 3 bu_train.py --style fmt --show-total --epochs 50
# (lines say "epoch k/50"). ~30 s in, both node consoles are copied to snapshot/ as someone checking the job would;
# the job is stopped afterwards (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 4 --rows 512 > prep.log
mkdir -p trn-f05 trn-f06
L="torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29420 --rdzv-id 6230 --tee 3 bu_train.py --data data --style fmt --show-total --epochs 50 --log-every 16 --step-sleep 0.03 --eval"
unshare -u sh -c "hostname trn-f05; exec $L > trn-f05/console.log 2>&1" & A=$!
sleep 1
unshare -u sh -c "hostname trn-f06; exec $L > trn-f06/console.log 2>&1" & B=$!
sleep 30; mkdir -p snapshot/trn-f05 snapshot/trn-f06; cp trn-f05/console.log snapshot/trn-f05/; cp trn-f06/console.log snapshot/trn-f06/
kill $A $B; wait $A; rc trn-f05 $?; wait $B; rc trn-f06 $?
