#!/bin/bash
# Two simulated nodes on this machine: two torchrun agents (--nnodes 2 --nproc-per-node 2, c10d rendezvous at
# 127.0.0.1:29641), each in its own UTS + mount namespace with its own host name (trn-a, trn-b; /etc/hosts bind-
# mounted with both names on 127.0.0.1). Each agent's output (agent + its workers, no --tee) goes to one per-node
# file: node-trn-a.log, node-trn-b.log. DataLoader num_workers=1, batches of 4 x 64x64x64 float32 (4 MiB) handed
# from the worker process through shared memory.
# Planted (node-level): trn-b's /dev/shm is a 1 MiB tmpfs (a container started without --shm-size), trn-a's is the
# host's.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1 localhost trn-a trn-b\n' > hosts
node() {  # node <hostname> <node-rank> <shm-size or ''>
  unshare -u -m sh -c "hostname $1; mount --bind $J/hosts /etc/hosts; ${3:+mount -t tmpfs -o size=$3 tmpfs /dev/shm;} \
    exec timeout -s TERM 90 nice $TR --nnodes 2 --node-rank $2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:29641 --rdzv-id da2node da_train.py --steps 10 --pg-timeout 30 --fault shm --workers 1" \
    > node-$1.log 2>&1
}
node trn-a 0 '' & A=$!
sleep 1
node trn-b 1 1m & B=$!
wait $A; rc trn-a $?
wait $B; rc trn-b $?
