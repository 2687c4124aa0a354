#!/bin/bash
# Two "containers" as two nodes (vc_ctr.py: UTS + PID + mount namespaces, private /dev/shm tmpfs, docker json-file
# logs in containers/<id>/<id>-json.log, runtime log ctrd.log), each running a torchrun agent (static rendezvous,
# --nnodes 2, 2 workers per node, master on train-node-a). The trainer's DataLoader uses 2 worker processes
# (batches come back through shared memory). train-node-b was started with --shm-size 4m, train-node-a with 256m.
. "$(dirname "$(readlink -f "$0")")/common.sh"
T="torchrun --nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29905"
A="vc_train.py --rows 120000 --bs 16384 --workers 2 --epochs 2 --pg-timeout 30 --log-every 2 --sleep 0.1"
F='%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s'
timeout -s TERM 150 nice $PY vc_ctr.py run --name trainer-a --hostname train-node-a --shm-size 256m -- \
  $T --node-rank 0 $A --fmt "$F" & PA=$!
timeout -s TERM 150 nice $PY vc_ctr.py run --name trainer-b --hostname train-node-b --shm-size 4m -- \
  $T --node-rank 1 $A --fmt "$F" & PB=$!
wait $PA; rc node-a $?
wait $PB; rc node-b $?
