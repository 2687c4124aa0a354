#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (CPU, gloo) bi_acc.py: a bag-of-tokens classifier; each rank reads
# its own JSONL file of 32-token windows through a DataLoader whose custom collate_fn torch.stack()s the windows.
# Rank 2's file holds one window (row 517) that is only 31 tokens long (planted: tokenizer edge case at a document
# end), so the collate of the batch holding it raises on rank 2 in epoch 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_tokprep.py --out data --shards 3 --rows 800 --short-row 2:517 > prep.log
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no \
  bi_acc.py --epochs 2 --batch-size 16 > console.log 2>&1
rc accelerate $?
