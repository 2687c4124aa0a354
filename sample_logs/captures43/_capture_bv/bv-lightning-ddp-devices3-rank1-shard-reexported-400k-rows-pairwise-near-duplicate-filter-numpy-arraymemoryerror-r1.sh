#!/bin/bash
# python bv_pl.py --devices 3 --strategy ddp --dedup 1e-3: Lightning DDP on CPU, 3 ranks, one console. Each rank runs
# an exact pairwise near-duplicate filter (n x n float64 distance matrix) on its shard in DataModule.setup. Rank 1's
# shard was re-exported with 400000 rows (bv_prep.py --big-shard 1:400000), so its distance matrix would need
# ~1.2 TB and numpy refuses the allocation with _ArrayMemoryError (a MemoryError) on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_prep.py --out data --shards 3 --rows 2048 --big-shard 1:400000 > prep.log
$PY bv_pl.py --devices 3 --strategy ddp --max-epochs 3 --dedup 1e-3 --progress > console.log 2>&1
rc python $?
