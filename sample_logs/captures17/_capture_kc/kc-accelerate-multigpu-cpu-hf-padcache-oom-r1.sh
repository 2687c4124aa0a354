#!/bin/bash
# accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no
# (command-line flags only, no config file) running an HF Trainer script (kc_hf.py): transformers INFO logging +
# python logging on stdout, tqdm bar on stderr, all into console.log. The whole job runs under `ulimit -v 6291456`
# (6 GiB address space per process, the site's per-task memory limit).
# Planted: rank 1's shard data/train-00001.jsonl holds one un-split 3,000,000-token document; the padded feature
# cache (pad to the longest document of the shard) needs 640 x 3e6 int32 = 7.2 GiB on rank 1 only.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_kc_jsonl.py 2 --long 1:3000000 > make_data.out
ulimit -v 6291456
timeout -s TERM 150 nice $V/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 \
  --mixed_precision no --dynamo_backend no kc_hf.py > console.log 2>&1
rc accelerate $?
