#!/bin/bash
# `fabric run --accelerator cpu --strategy ddp --devices 2 kc_fabric.py` (Lightning Fabric CLI, torchrun underneath),
# PYTHONFAULTHANDLER=1 and TORCH_SHOW_CPP_STACKTRACES=1 in the environment; all output in console.log.
# Each rank hashes the text field of its shard with a small C helper (libkctok.so, built here with gcc -O2 from
# kctok.c, loaded with ctypes).
# Planted: record 200 of rank 0's shard has an empty text field; the wrapper passes an empty string as None (NULL)
# and the C loop (do/while) reads s[0] before checking the length: a segfault in rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
gcc -O2 -shared -fPIC -o libkctok.so kctok.c
$PY make_kc_shards.py shards 2 --text --empty-text 0:200 > make_shards.out
export PYTHONFAULTHANDLER=1 TORCH_SHOW_CPP_STACKTRACES=1
timeout -s TERM 150 nice $V/fabric run --accelerator cpu --strategy ddp --devices 2 kc_fabric.py > console.log 2>&1
rc fabric $?
