#!/bin/bash
# Two "nodes" (unshare -u hostnames trn-a / trn-b), one `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d
# --rdzv-endpoint trn-a:29630 --redirects 3 --log-dir <node>/logs` per node (per-node agent console + per-rank log-dir tree).
# Each node sources its node environment file before launching; trn-b's file carries CUDA_VISIBLE_DEVICES=0 (a
# leftover from a single-device debug session) instead of 0,1. The trainer's startup device check (one visible
# device per local rank) raises on both of trn-b's ranks (2, 3) before init_process_group; trn-a's ranks wait.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p trn-a trn-b
printf 'export CUDA_VISIBLE_DEVICES=0,1\nexport NCCL_SOCKET_IFNAME=lo\n' > trn-a/node.env
printf 'export CUDA_VISIBLE_DEVICES=0\nexport NCCL_SOCKET_IFNAME=lo\n' > trn-b/node.env
node() {  # host
  unshare -u bash -c "hostname $1; . $1/node.env; exec torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint trn-a:29630 --rdzv-id job-4417 --redirects 3 --log-dir $1/logs ap_train.py --data data --epochs 2 --device-check --pg-timeout 30"
}
node trn-a > trn-a/console.log 2>&1 & A=$!
sleep 1
node trn-b > trn-b/console.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
