#!/bin/bash
# pytorch-ignite: `python lc_ignite.py` where idist.Parallel(backend="gloo", nproc_per_node=2) spawns the two
# workers itself (no external launcher); ignite's Engine logger + a setup_logger per rank on stderr;
# console.log = everything. Each rank reads its own data/part-<rank>.jsonl.
# Planted: record 93 of rank 1's file has 23 features instead of 24 (the exporter cut the row).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY lc_make_jsonl.py data 2 --short 1:93 > prep.txt
timeout -s TERM 150 nice $PY lc_ignite.py > console.log 2>&1
rc python $?
