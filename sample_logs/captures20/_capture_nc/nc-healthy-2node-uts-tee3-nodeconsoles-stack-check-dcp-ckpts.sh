#!/bin/bash
# Two torchrun agents (static rendezvous, --nnodes 2 --nproc-per-node 2, master cn-c01) as two nodes cn-c01 and
# cn-c02, each in its own UTS + mount namespace (nc_2node_common.sh); per-node console files nodes/<host>/console.log
# (torchrun --tee 3). Both nodes carry the same image manifest; training saves DCP checkpoints every 20 steps to the
# shared ckpt/ directory (read-write on both). Nothing planted.
. "$(dirname "$(readlink -f "$0")")/common.sh"
NODE_A=cn-c01; NODE_B=cn-c02; export MASTER=$NODE_A TRAIN_ARGS="--steps 60 --ckpt-every 20"
. "$HERE/nc_2node_common.sh"
printf 'image==hpc-ml-2026.11\ntorch==2.13.0+cpu\nnumpy==2.4.6\n' > nodes/manifest.txt
timeout -s TERM 150 nice bash -c "
unshare -u -m --fork --kill-child bash node.sh $NODE_A 0 nodes/manifest.txt & a=\$!
unshare -u -m --fork --kill-child bash node.sh $NODE_B 1 nodes/manifest.txt & b=\$!
wait \$a; echo \"node $NODE_A agent exit \$?\"; wait \$b; echo \"node $NODE_B agent exit \$?\"" > launch.txt 2>&1
rc nodes $?
cat launch.txt; ls -R ckpt
