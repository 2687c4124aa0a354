#!/bin/bash
# Two "nodes" (unshare -u hostnames trn-a / trn-b, each with its own private tmpfs node-local /mnt/scratch), one
# `accelerate launch --multi_gpu --num_machines 2 --num_processes 4` (no GPU: MULTI_CPU + gloo) per node (2 ranks each), one console per node.
# Each node's stage-in copies the dataset from the shared dir to /mnt/scratch/data; on trn-b the copy of the shard
# files did not happen (its stage-in list only had the metadata files) -> ranks 2 and 3 (both on trn-b) fail with
# FileNotFoundError; node a's ranks fail in the first collective.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out shared_data --shards 4 --rows 256 > prep.log
node() {  # node host stagein-files machine-rank
  unshare -u -m bash -c "hostname $1; mount -t tmpfs -o size=64m tmpfs /mnt; mkdir -p /mnt/scratch/data; cd $J
    echo \"[\$(date '+%F %T')] stage-in: $2 -> /mnt/scratch/data\"
    cp $2 /mnt/scratch/data/
    echo \"[\$(date '+%F %T')] stage-in done: \$(ls /mnt/scratch/data | wc -l) files\"
    exec accelerate launch --multi_gpu --num_machines 2 --machine_rank $3 --num_processes 4 --main_process_ip trn-a \
      --main_process_port 29570 --mixed_precision no --dynamo_backend no \
      am_acc.py --data /mnt/scratch/data --epochs 2 --pg-timeout 60"
}
node trn-a "shared_data/*" 0 > node-a.log 2>&1 & A=$!
sleep 1
node trn-b "shared_data/classes.txt shared_data/stats.pkl shared_data/val.npz" 1 > node-b.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
