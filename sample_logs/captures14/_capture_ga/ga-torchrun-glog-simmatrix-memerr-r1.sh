#!/bin/bash
# torchrun --nnodes 1 --nproc-per-node 2 with an explicit c10d rendezvous endpoint (not --standalone); workers log
# glog-style (`I1206 06:40:01.123456 <pid> ga_train.py:<line>] msg`) to stderr; console.log = agent + workers.
# Planted: hard-negative mining builds a dense n x n float32 similarity matrix per shard; the shard index gives rank 1
# a 600000-row shard (rank 0: 4096): 1.3 TiB, more than the machine's 23 GiB RAM (no swap, heuristic overcommit).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $TR --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29791 \
  --rdzv-id ga-mine-7 ga_train.py --steps 10 --sleep 0.2 --pg-timeout 30 --log-style glog \
  --mine --shard-rows 4096,600000 --fault sim_matrix > console.log 2>&1
rc launcher $?
