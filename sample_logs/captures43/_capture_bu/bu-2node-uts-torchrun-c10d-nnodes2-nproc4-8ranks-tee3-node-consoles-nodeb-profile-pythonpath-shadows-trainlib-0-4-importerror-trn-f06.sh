#!/bin/bash
# Two "nodes" (UTS namespaces trn-f05 / trn-f06, same loopback network), each running
# torchrun --nnodes 2 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29400 --rdzv-id 4471 --tee 3
# bu_train.py: 8 ranks. The job's trainlib 0.6 is on PYTHONPATH (project lib dir) on both nodes; trn-f06's login
# profile additionally prepends an old shared software tree (shared/pylib/, trainlib 0.4, no WarmupCosine). All 4 ranks on
# trn-f06 fail at import; trn-f05's ranks wait in process-group init until their 20 s timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 8 --rows 256 > prep.log
mkdir -p trn-f05 trn-f06
mkdir -p "$J/shared"; cp -r "$HERE/shared_pylib" "$J/shared/pylib"
L="torchrun --nnodes 2 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29400 --rdzv-id 4471 --tee 3 bu_train.py --data data --style fmt --epochs 3 --log-every 8 --eval --pg-timeout 20"
unshare -u sh -c "hostname trn-f05; exec $L > trn-f05/console.log 2>&1" & A=$!
sleep 2
unshare -u sh -c "hostname trn-f06; export PYTHONPATH=$J/shared/pylib:\$PYTHONPATH; exec $L > trn-f06/console.log 2>&1" & B=$!
wait $B; rc trn-f06 $?
wait $A; rc trn-f05 $?
