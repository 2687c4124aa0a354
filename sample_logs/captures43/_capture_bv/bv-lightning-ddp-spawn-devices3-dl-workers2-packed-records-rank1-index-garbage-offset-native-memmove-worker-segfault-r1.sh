#!/bin/bash
# python bv_pl.py --devices 3 --strategy ddp_spawn --packed --workers 2: Lightning DDP-spawn on CPU, 3 ranks, each
# rank's DataLoader with 2 worker processes reading packed binary records (shard_XX.bin + .idx) through a ctypes
# memmove fast path. Rank 1's index holds one garbage offset (bv_pack.py --bad-offset 1:1500, an uninitialised slot
# written by the packer), so the worker that fetches record 1500 reads unmapped memory and dies with SIGSEGV; the
# DataLoader in rank 1 raises "DataLoader worker ... is killed by signal: Segmentation fault".
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 3 --rows 2048 > prep.log
$PY bv_pack.py --data data --bad-offset 1:1500 >> prep.log
$PY bv_pl.py --devices 3 --strategy ddp_spawn --max-epochs 3 --packed --workers 2 --progress > console.log 2>&1
rc python $?
