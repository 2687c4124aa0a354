#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames ml-a03 / ml-a04), static rendezvous: on each node, in its own directory, an
# interactive shell (a pty from util-linux `script`) runs `nohup torchrun --nnodes 2 --node-rank {0,1}
# --nproc-per-node 4 --master-addr ml-a03 --master-port 29761 ../bd_train.py ... &`, so each node's console goes to
# <host>/nohup.out; each rank also logs to its own FileHandler in the node's logs/ dir (rank 0 also to the console).
# 8 ranks, 480 steps. Rank 0 pushes metrics to a sink at http://127.0.0.1:9091/push every 20 steps; the sink is not up
# at the start (it is started ~15 s into the run), so rank 0 logs ERROR "metrics push ... failed ... Connection
# refused ... will retry" several times, buffers, and then logs that the push recovered. Training runs to the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 8 --rows 4096 > prep.log
mkdir -p ml-a03 ml-a04
node() {  # host node-rank
  (cd $1 && unshare -u bash -c "hostname $1; script -qfc 'nohup torchrun --nnodes 2 --node-rank $2 --nproc-per-node 4 \
    --master-addr ml-a03 --master-port 29761 ../bd_train.py --data ../data --steps 480 --log-every 20 --pg-timeout 120 \
    --step-sleep 0.01 --metrics-push http://127.0.0.1:9091/push & wait' term.log < /dev/null > /dev/null")
}
node ml-a03 0 & A=$!
sleep 1
node ml-a04 1 & B=$!
sleep 15; $PY bd_sink.py 9091 > sink.log 2>&1 & S=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
kill $S
