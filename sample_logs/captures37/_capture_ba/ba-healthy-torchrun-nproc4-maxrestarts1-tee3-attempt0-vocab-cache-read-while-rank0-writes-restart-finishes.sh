#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --max-restarts 1 --tee 3 (console: agent lines + every worker's output,
# prefixed). Rank 0 builds a label-vocab cache (cache/vocab.json, written in place in chunks) when it does not exist;
# the other ranks wait for the file to appear and read it. In attempt 0 they read it while rank 0 is still writing
# (JSONDecodeError on the partial file); the agent stops the group and restarts it (restart 1/1). In attempt 1 the
# cache is complete, every rank loads it, the 3 epochs run and the job exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p cache
torchrun --standalone --nproc-per-node 4 --max-restarts 1 --tee 3 ba_train.py --data data --vocab-cache cache/vocab.json --init-dir rdzv \
  --epochs 3 --log-every 4 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
