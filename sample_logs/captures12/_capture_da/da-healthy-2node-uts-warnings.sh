#!/bin/bash
# Two simulated nodes (as da-2node-uts-devshm-node-trn-b): two torchrun agents (--nnodes 2 --nproc-per-node 2, c10d
# rendezvous at 127.0.0.1:29642), each in its own UTS + mount namespace with host name trn-a / trn-b, one per-node file
# each (node-trn-a.log, node-trn-b.log). Healthy: every rank prints a UserWarning, a WARNING and an ERROR with a
# caught TimeoutError traceback (metrics push retried), then 10 steps and 'training done'; both agents exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1 localhost trn-a trn-b\n' > hosts
node() {  # node <hostname> <node-rank>
  unshare -u -m sh -c "hostname $1; mount --bind $J/hosts /etc/hosts; \
    exec timeout -s TERM 90 nice $TR --nnodes 2 --node-rank $2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:29642 --rdzv-id da2nodeok da_train.py --steps 10 --pg-timeout 30 --warnings" \
    > node-$1.log 2>&1
}
node trn-a 0 & A=$!
sleep 1
node trn-b 1 & B=$!
wait $A; rc trn-a $?
wait $B; rc trn-b $?
