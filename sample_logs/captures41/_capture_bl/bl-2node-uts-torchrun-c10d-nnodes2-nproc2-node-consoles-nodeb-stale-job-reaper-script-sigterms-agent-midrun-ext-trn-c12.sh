#!/bin/bash
# Two "nodes" (UTS namespaces trn-c11 / trn-c12), torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d
# --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 7731 bl_train.py --style print; consoles in <hostname>/console.log.
# The launch wrapper registers the agent's pid in <host>/run/7731.pid. Node trn-c12 runs a stale-job reaper script
# (bl_reaper.sh, its log in trn-c12/reaper.log) whose active-job list was not updated for job 7731: ~10 s into
# training it SIGTERMs node b's torchrun agent.
. "$(dirname "$(readlink -f "$0")")/common.sh"
grep -q trn-c12 /etc/hosts || echo "127.0.1.2 trn-c12" >> /etc/hosts
$PY bl_prep.py --out data --shards 4 --rows 1024 > prep.log
mkdir -p trn-c11/run trn-c12/run; echo 7702 > trn-c12/active_jobs
L="torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 7731 bl_train.py --data data --style print --steps 3000 --log-every 100 --step-sleep 0.01 --pg-timeout 60"
unshare -u sh -c "hostname trn-c11; echo \$\$ > trn-c11/run/7731.pid; exec $L > trn-c11/console.log 2>&1" & A=$!
sleep 2
unshare -u sh -c "hostname trn-c12; echo \$\$ > trn-c12/run/7731.pid; exec $L > trn-c12/console.log 2>&1" & B=$!
sleep 8
unshare -u sh -c "hostname trn-c12; exec bash bl_reaper.sh trn-c12/run trn-c12/active_jobs trn-c12/reaper.log" & R=$!
wait $B; rc trn-c12 $?
wait $A; rc trn-c11 $?
kill $R; wait $R 2>/dev/null
