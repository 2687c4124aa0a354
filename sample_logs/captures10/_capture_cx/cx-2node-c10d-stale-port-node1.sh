#!/bin/bash
# A bash wrapper starts two torchrun agents = two 'nodes' on this machine, --nnodes 2 --node-rank 0/1
# --nproc-per-node 2, c10d rendezvous on 127.0.0.1:$MASTER_PORT, --rdzv-conf join_timeout=25, each node's
# console in node-<n>/console.log (LOGLEVEL=INFO: the agents log their rendezvous steps). Each node sources its own env file (node-<n>.env) for MASTER_ADDR/PORT.
# Planted: node 1's env file is stale: MASTER_PORT=29962 instead of 29961. Neither node gets a peer.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf 'MASTER_ADDR=127.0.0.1\nMASTER_PORT=29961\n' > node-0.env
printf 'MASTER_ADDR=127.0.0.1\nMASTER_PORT=29962\n' > node-1.env
for n in 0 1; do
  mkdir -p node-$n
  ( set -a; . ./node-$n.env; set +a
    LOGLEVEL=INFO nice $TR --nnodes 2 --node-rank $n --nproc-per-node 2 --rdzv-backend c10d \
      --rdzv-endpoint $MASTER_ADDR:$MASTER_PORT --rdzv-id cxjob7 --rdzv-conf join_timeout=25 --tee 3 \
      cx_train.py --log-style bracket --steps 10 --pg-timeout 30 > node-$n/console.log 2>&1
    echo $? > exit_code.node$n ) &
  sleep 1
done
wait; echo "node0 exit $(cat exit_code.node0) node1 exit $(cat exit_code.node1)"
