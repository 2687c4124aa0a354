#!/bin/bash
# Two torchrun agents (static rendezvous, --nnodes 2 --nproc-per-node 2, master cn-a03) as two nodes cn-a03 and
# cn-b07, each in its own UTS + mount namespace (nc_2node_common.sh); per-node console files nodes/<host>/console.log
# (torchrun --tee 3). Each rank reads its node's image manifest and all-gathers the torch version before training.
# Planted: cn-b07 was re-imaged with an older stack (manifest torch==2.12.1+cpu, image 2026.10) than cn-a03
# (torch==2.13.0+cpu, image 2026.11); the worker refuses to start on a version mismatch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
NODE_A=cn-a03; NODE_B=cn-b07; export MASTER=$NODE_A TRAIN_ARGS="--steps 40"
. "$HERE/nc_2node_common.sh"
printf 'image==hpc-ml-2026.11\ntorch==2.13.0+cpu\nnumpy==2.4.6\n' > nodes/manifest-a.txt
printf 'image==hpc-ml-2026.10\ntorch==2.12.1+cpu\nnumpy==2.4.6\n' > nodes/manifest-b.txt
timeout -s TERM 150 nice bash -c "
unshare -u -m --fork --kill-child bash node.sh $NODE_A 0 nodes/manifest-a.txt & a=\$!
unshare -u -m --fork --kill-child bash node.sh $NODE_B 1 nodes/manifest-b.txt & b=\$!
wait \$a; echo \"node $NODE_A agent exit \$?\"; wait \$b; echo \"node $NODE_B agent exit \$?\"" > launch.txt 2>&1
rc nodes $?
cat launch.txt
