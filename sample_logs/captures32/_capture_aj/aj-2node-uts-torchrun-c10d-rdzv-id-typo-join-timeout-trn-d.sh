#!/bin/bash
# Two "nodes" (torchrun agents in their own UTS namespaces, hostnames trn-c / trn-d; /etc/hosts of the job's mount
# namespace maps both to 127.0.0.1), --nnodes 2 --nproc-per-node 2, c10d rendezvous on trn-c:29420, LOGLEVEL=INFO,
# join_timeout=45; one console per node. Fault: node trn-d's launch line has the rendezvous id typed wrong
# (ft-run-0419 instead of ft-run-0491), so each agent waits alone in its own rendezvous until the join timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1\tlocalhost\n127.0.0.1\ttrn-c\n127.0.0.1\ttrn-d\n' > hosts && mount --bind hosts /etc/hosts
mkdir -p trn-c trn-d
node() {  # node HOST RDZV_ID
  unshare -u sh -c "hostname $1 && cd $1 && LOGLEVEL=INFO exec torchrun --nnodes 2 --nproc-per-node 2 \
    --rdzv-backend c10d --rdzv-endpoint trn-c:29420 --rdzv-id $2 --rdzv-conf join_timeout=45 \
    ../aj_train.py --epochs 2" > $1.console 2>&1
}
node trn-c ft-run-0491 & A=$!
sleep 3
node trn-d ft-run-0419 & B=$!
wait $A; rc trn-c $?
wait $B; rc trn-d $?
