#!/bin/bash
# Two torchrun agents (static rendezvous, --nnodes 2 --nproc-per-node 2, master gpu-n11) as two nodes gpu-n11 and
# gpu-n12, each in its own UTS + mount namespace (nc_2node_common.sh); per-node console files nodes/<host>/console.log
# (torchrun --tee 3). Training saves a torch.distributed.checkpoint (dcp.save, one file per rank + .metadata) to the
# shared ckpt/ directory every 20 steps.
# Planted: on gpu-n12 the shared checkpoint file system is mounted read-only (its mount came up ro after a storage
# fail-over; the node's mount namespace bind-remounts ckpt/ with -o ro), gpu-n11 sees it read-write.
. "$(dirname "$(readlink -f "$0")")/common.sh"
NODE_A=gpu-n11; NODE_B=gpu-n12; export MASTER=$NODE_A TRAIN_ARGS="--steps 60 --ckpt-every 20"
. "$HERE/nc_2node_common.sh"
printf 'image==hpc-ml-2026.11\ntorch==2.13.0+cpu\nnumpy==2.4.6\n' > nodes/manifest.txt
timeout -s TERM 150 nice bash -c "
unshare -u -m --fork --kill-child bash node.sh $NODE_A 0 nodes/manifest.txt & a=\$!
unshare -u -m --fork --kill-child bash node.sh $NODE_B 1 nodes/manifest.txt ro & b=\$!
wait \$a; echo \"node $NODE_A agent exit \$?\"; wait \$b; echo \"node $NODE_B agent exit \$?\"" > launch.txt 2>&1
rc nodes $?
cat launch.txt; ls -lR ckpt
