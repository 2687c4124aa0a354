#!/bin/bash
# Two simulated nodes on this machine: two torchrun agents (--nnodes 2 --nproc-per-node 2, c10d rendezvous at the
# master's host name trn-master:29770, join_timeout=30, read_timeout=20), each in its own UTS + mount namespace with its own host name
# (trn-a, trn-b) and its own /etc/hosts (bind-mounted). Each agent's output (agent + its workers) goes to one per-node
# file: node-trn-a.log, node-trn-b.log. Workers: asctime logging on stderr.
# Planted (node-level): trn-b's /etc/hosts was written by its provisioning before the master alias existed: it lists
# localhost and trn-b only, no trn-master (trn-a's lists trn-a, trn-b and trn-master). No DNS in the namespace.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1 localhost\n127.0.0.1 trn-a trn-master\n127.0.0.1 trn-b\n' > hosts.trn-a
printf '127.0.0.1 localhost\n127.0.0.1 trn-b\n' > hosts.trn-b
node() {  # node <hostname> <node-rank>
  unshare -u -m sh -c "hostname $1; mount --bind $J/hosts.$1 /etc/hosts; \
    exec timeout -s TERM 150 nice $TR --nnodes 2 --node-rank $2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint trn-master:29770 --rdzv-id ia2node --rdzv-conf join_timeout=30,read_timeout=20 ia_train.py --steps 10 --pg-timeout 30" \
    > node-$1.log 2>&1
}
node trn-a 0 & A=$!
sleep 1
node trn-b 1 & B=$!
wait $A; rc trn-a $?
wait $B; rc trn-b $?
