#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
# two "nodes": two torchrun agents in their own UTS + mount namespaces (hostnames node-a / node-b) sharing the job's
# loopback network; /etc/hosts names both nodes. node-b's node-local scratch is a 16 KiB tmpfs.
cp /etc/hosts hosts.cluster; echo "127.0.0.1 node-a node-b" >> hosts.cluster
mkdir -p node-a node-b scratch
run_node() {  # $1 host, $2 extra mount command
  unshare -u -m sh -c "mount --bind $J/hosts.cluster /etc/hosts; hostname $1; $2
    exec torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint node-a:29655 --rdzv-id ag2n \
      ag_train.py --epochs 3 --steps 30 --hidden 256 --ckpt-every 1 --ckpt-per-rank --ckpt-dir $J/scratch/ckpt \
      --pg-timeout 60" > $1/console.log 2>&1
}
run_node node-a "" & A=$!
sleep 2
run_node node-b "mount -t tmpfs -o size=16k tmpfs $J/scratch;" & B=$!
wait $A; rc node-a $?
wait $B; rc node-b $?
