#!/bin/bash
# honcho (a Python Foreman clone) starts a Procfile with three processes: `ps` (torch.distributed.rpc parameter server,
# TensorPipe backend, rank 0) and `trainer1` / `trainer2` (ranks 1, 2); honcho's merged, time- and name-prefixed
# output is console.log.
# Planted: trainer2's shards were exported with 40 feature columns (a newer feature set), trainer1's with 32 like the
# server's model; trainer2 builds its local replica from its data's width and pushes gradients of the wrong shape.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export TP_SOCKET_IFNAME=lo GLOO_SOCKET_IFNAME=lo
$PY oc_make_rpc_data.py data 2 3 1280 trainer2:0:40 trainer2:1:40 trainer2:2:40
cat > Procfile <<'EOP'
ps: python oc_rpc_ps.py ps 0 3
trainer1: python oc_rpc_ps.py trainer1 1 3
trainer2: python oc_rpc_ps.py trainer2 2 3
EOP
timeout -s TERM 150 nice honcho start --no-colour > console.log 2>&1
rc honcho $?
