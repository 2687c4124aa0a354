#!/bin/bash
# Two "nodes" (two torchrun agents, each in its own UTS namespace with hostname trn-a / trn-b, own scratch dir),
# --nnodes 2 --nproc-per-node 2, c10d rendezvous on 127.0.0.1:29400, --tee 3; one console per node.
# Fault: node trn-b's node-local dataset cache for rank 3 holds a stale .lock left by a killed earlier run (pid 48213);
# (/etc/hosts of the job's mount namespace maps trn-a, trn-b to 127.0.0.1.)
# rank 3 waits on it forever, ranks 0-2 time out (gloo timeout 25 s) in DDP's first collective.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1\tlocalhost\n127.0.0.1\ttrn-a\n127.0.0.1\ttrn-b\n' > hosts && mount --bind hosts /etc/hosts
mkdir -p trn-a trn-b/scratch/cache/rank3
echo "trn-b 48213" > trn-b/scratch/cache/rank3/.lock
node() {  # node HOST
  unshare -u sh -c "hostname $1 && cd $1 && exec torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:29400 --rdzv-id aj-2node-0412 --tee 3 ../aj_train.py --pg-timeout 25 \
    --cache-dir 'scratch/cache/rank{rank}' --epochs 2 --log-style print" > $1.console 2>&1
}
node trn-a & A=$!
sleep 2
node trn-b & B=$!
wait $A; rc trn-a $?
wait $B; rc trn-b $?
