#!/bin/bash
# `make train` (site Makefile: check-data, then torchrun --standalone --nproc-per-node 3) ; make's console in make.log.
# Planted: rank 1's shard (data/v3/shard-00001.jsonl) has line 517 cut in half (an interrupted export).
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/Makefile.pc" Makefile
$PY pc_make_data.py data/v3 3 800 1:516
timeout -s TERM 120 nice make train > make.log 2>&1
rc make $?
