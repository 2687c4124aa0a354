#!/bin/bash
# python -m torch.distributed.run --standalone --nproc-per-node 3 bx_train.py --log-format json --skip-bad-records:
# 3 ranks, DDP over gloo, JSON-lines logs on stdout (console only). Shards are JSON-lines record files; record 137 of
# shard 1 was cut in half: rank 1's loader catches the JSONDecodeError, logs it with its traceback (exc_info field) and
# skips the record. The run trains 4 epochs and finishes with a final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 3 --rows 512 --jsonl --cut-record 1:137 > prep.log
python -m torch.distributed.run --standalone --nproc-per-node 3 bx_train.py --data data --log-format json \
  --skip-bad-records --epochs 4 --log-every 16 --pg-timeout 60 --eval > console.log 2>&1
rc torchrun $?
