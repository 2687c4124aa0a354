#!/bin/bash
# Two "nodes" (unshare -u hostnames trn-a / trn-b), torchrun --nnodes 2 --nproc-per-node 2 --tee 3 static
# rendezvous on each, one console per node. trn-b runs from an older virtualenv (/home/user/capAA/venv_old: same
# torch 2.13.0 but numpy 1.24.4) while the dataset stats.pkl was written with numpy 2.x -> ranks 2 and 3 (trn-b) fail
# unpickling it (No module named 'numpy._core'); trn-a's ranks then fail.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 4 --rows 256 > prep.log
node() {  # host venv node-rank
  unshare -u bash -c "hostname $1; exec $2/bin/torchrun --nnodes 2 --node-rank $3 --nproc-per-node 2 --master-addr trn-a \
    --master-port 29580 --tee 3 am_train.py --data data --epochs 2 --pg-timeout 60"
}
node trn-a /home/user/capAA/venv 0 > node-a.log 2>&1 & A=$!
node trn-b /home/user/capAA/venv_old 1 > node-b.log 2>&1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
