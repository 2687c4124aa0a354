#!/bin/bash
# Two "nodes", each its own UTS namespace (trn-a / trn-b); trn-b also in its own network namespace, wired to trn-a by a
# veth pair (10.77.0.1 <-> 10.77.0.2; hosts file maps the names). One elastic agent per node:
# `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint trn-a:29650 --max-restarts 1
#  --rdzv-conf join_timeout=40,read_timeout=30` (the c10d store is hosted by trn-a's agent); one console per node.
# 14 s after the launch (training under way) trn-b's interface goes down (`ip link set vb down` inside its netns:
# its NIC / link fails) -> trn-b's agent and workers lose the store and peers; gloo timeout 20 s. trn-a's agent
# restarts its workers but the re-rendezvous times out (trn-b never rejoins); trn-b's agent hangs and is stopped by
# the operator (SIGTERM, then SIGKILL: it ignores the TERM while blocked) 60 s after trn-a's agent exited.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 4 --rows 2048 > prep.log
printf '127.0.0.1 localhost\n10.77.0.1 trn-a\n10.77.0.2 trn-b\n' > /tmp/ap_hosts_veth; mount --bind /tmp/ap_hosts_veth /etc/hosts
ip netns add nb
ip link add va type veth peer name vb
ip link set vb netns nb
ip addr add 10.77.0.1/24 dev va; ip link set va up
ip netns exec nb ip addr add 10.77.0.2/24 dev vb; ip netns exec nb ip link set vb up; ip netns exec nb ip link set lo up
TR="torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint trn-a:29650 --rdzv-id ft-7731 --max-restarts 1 --rdzv-conf join_timeout=40,read_timeout=30 ap_train.py --data data --epochs 3 --pg-timeout 20 --step-sleep 0.1"
unshare -u bash -c "hostname trn-a; exec $TR" > node-a.log 2>&1 & A=$!
ip netns exec nb unshare -u bash -c "hostname trn-b; exec $TR" > node-b.log 2>&1 & B=$!
sleep 14; ip netns exec nb ip link set vb down
wait $A; rc node-a $?
# trn-b's agent never exits on its own: 60 s after trn-a's agent has given up the operator stops it (SIGTERM)
for i in $(seq 60); do kill -0 $B 2>/dev/null || break; sleep 1; done
kill -0 $B 2>/dev/null && kill -TERM $B  # $B is trn-b's torchrun itself (ip netns exec, unshare, bash exec into it)
# the agent is blocked in a store call and does not act on SIGTERM: SIGKILL it (prints nothing)
for i in $(seq 60); do kill -0 $B 2>/dev/null || break; sleep 1; done; kill -0 $B 2>/dev/null && kill -KILL $B
wait $B; rc node-b $?
ip netns del nb
