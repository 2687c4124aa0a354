#!/bin/bash
# two torchrun agents = two "nodes" on this machine, --nnodes 2 --nproc-per-node 2, c10d rendezvous on
# 127.0.0.1:29916 (rdzv id job42), --tee 3, each node's console in node-{0,1}/console.log.
# Once rank 3 (node 1, local rank 1) logs step 6, it is sent SIGSEGV from outside (no faulthandler: it prints nothing).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p node-0 node-1
C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29916 --rdzv-id job42 --tee 3"
(cd node-0 && nice $TR $C ../x_train.py --steps 14 --sleep 0.3 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc0) &
sleep 1
(cd node-1 && nice $TR $C ../x_train.py --steps 14 --sleep 0.3 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc1) &
for i in $(seq 1 400); do
  if grep -q '\[rank3\] train: step 6/14' node-1/console.log 2>/dev/null; then
    pid=$(grep -o '\[rank3\] train: starting: .*pid=[0-9]*' node-1/console.log | sed 's/.*pid=//'); kill -SEGV "$pid"; echo "SIGSEGV to rank 3 pid $pid"; break
  fi
  sleep 0.2
done
wait; rc node-0 $(cat rc0); rc node-1 $(cat rc1); rm -f rc0 rc1
