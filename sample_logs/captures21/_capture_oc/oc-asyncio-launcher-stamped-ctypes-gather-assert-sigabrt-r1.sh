#!/bin/bash
# The lab's home-grown asyncio launcher (oc_asyncio_launch.py): 3 workers with env:// variables, every worker line
# prefixed `YYYY-mm-dd HH:MM:SS.mmm [wR]`, launcher lines `[launcher]`, one console file launcher.log.
# Job: DDP over gloo; input rows fetched from a frozen feature table by a small native helper (libfusedgather.so,
# built from oc_fused_gather.c with gcc, called through ctypes; it asserts the row id is in range).
# Planted: the Python side pads a short last batch with id == n_items (one past the table); only rank 1's index shard
# is uneven (2000 items: 15 full batches + 80), ranks 0 and 2 hold 2048.
. "$(dirname "$(readlink -f "$0")")/common.sh"
ulimit -c 0
cp "$HERE/oc_fused_gather.c" . && gcc -O2 -shared -fPIC -o libfusedgather.so oc_fused_gather.c
$PY oc_make_items.py data 50000 2048,2000,2048
export GLOO_SOCKET_IFNAME=lo
timeout -s TERM 150 nice $PY oc_asyncio_launch.py 3 29861 -- $PY oc_ctypes_train.py > launcher.log 2>&1
rc launcher $?
