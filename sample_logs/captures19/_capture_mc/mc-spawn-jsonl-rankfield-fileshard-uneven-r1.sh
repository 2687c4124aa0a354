#!/bin/bash
# torch.multiprocessing.spawn(nprocs=3) launcher (mc_spawn_jsonl.py), gloo, JSON-lines logging with a "rank" field
# built by a Formatter string + rank filter, all on stderr; console.log = everything the job printed.
# Planted: the source files in data/ have uneven sizes (src-01 and src-04, the two files that the FileShardSampler
# (file k -> rank k % 3) gives rank 1, are small), so rank 1 gets fewer batches per epoch than ranks 0 and 2; the
# sampler does not pad/equalise, so rank 1 leaves the epoch loop and calls the epoch-end all_reduce while its peers
# are still in DDP's gradient all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY mc_make_files.py data 320,96,320,320,96,320 > prep.txt
timeout -s TERM 150 nice $PY mc_spawn_jsonl.py 3 > console.log 2>&1
rc spawn $?
