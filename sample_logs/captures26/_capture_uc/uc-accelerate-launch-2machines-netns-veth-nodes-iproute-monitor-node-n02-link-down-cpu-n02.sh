#!/bin/bash
# Two "machines" as network + UTS namespaces (cpu-n01 10.20.0.1, cpu-n02 10.20.0.2) joined by a veth pair; on each,
# `accelerate launch --multi_gpu --num_machines 2 --machine_rank R --num_processes 4 --main_process_ip 10.20.0.1`
# (2 CPU processes per machine, torchrun's static rendezvous underneath), each machine's console in
# <host>/accelerate.console, and a node-local link monitor `ip -ts monitor link address` in <host>/netmon.log.
# 14 s into training cpu-n02's interface goes down (the NIC / cable failure is simulated with `ip link set eth0 down`
# inside cpu-n02) and stays down.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p cpu-n01 cpu-n02; mount -t tmpfs -o size=4m job-run /run; mkdir -p /run/netns  # /run private to this mount namespace
ip netns add n01; ip netns add n02
ip link add veth-n01 type veth peer name veth-n02
ip link set veth-n01 netns n01; ip link set veth-n02 netns n02
ip -n n01 link set veth-n01 name eth0; ip -n n02 link set veth-n02 name eth0
ip -n n01 addr add 10.20.0.1/24 dev eth0; ip -n n02 addr add 10.20.0.2/24 dev eth0
for n in n01 n02; do ip -n $n link set lo up; ip -n $n link set eth0 up; done
node() {  # node <ns> <host> <machine_rank>
  ip netns exec $1 unshare -u sh -c "hostname $2; cd $2
    ip -ts monitor link address > netmon.log 2>&1 &
    printf '10.20.0.1 cpu-n01\n10.20.0.2 cpu-n02\n' > /dev/null
    GLOO_SOCKET_IFNAME=eth0 exec nice $V/accelerate launch --multi_gpu --num_machines 2 --machine_rank $3 \
      --num_processes 4 --main_process_ip 10.20.0.1 --main_process_port 29910 --rdzv_backend static \
      --same_network --mixed_precision no --dynamo_backend no \
      ../uc_train.py --epochs 30 --rows 1600 --pg-timeout 45 --sleep 0.05 \
      --fmt '%(asctime)s %(levelname)s [%(name)s] rank {rank}/{world}: %(message)s' > accelerate.console 2>&1"
}
node n01 cpu-n01 0 & A=$!
node n02 cpu-n02 1 & B=$!
sleep 25; ip -n n02 link set eth0 down; echo "$(date '+%F %T') n02 eth0 down" > harness-note.txt
( sleep 200; kill $A $B 2>/dev/null ) & W=$!
wait $A; rc n01 $?; wait $B; rc n02 $?
kill $W 2>/dev/null
sleep 1; ip netns pids n01 | xargs -r kill; ip netns pids n02 | xargs -r kill
