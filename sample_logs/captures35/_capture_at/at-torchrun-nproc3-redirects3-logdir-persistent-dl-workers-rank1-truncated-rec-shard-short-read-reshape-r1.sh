#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs (workers' output only in the --log-dir tree;
# the console holds the agent's lines). Each rank reads fixed-size float32 records (16 features + label) from its
# shard_XX.rec with a DataLoader (2 workers, persistent_workers=True, sequential order). Rank 1's .rec file was cut short
# by an interrupted copy (the .idx still says 256 rows): when a worker reads a record past the cut, the short read
# cannot be reshaped -> ValueError inside DataLoader worker, re-raised in rank 1; the agent stops ranks 0 and 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 3 --rows 256 --rec > prep.log
truncate -s $((250 * 17 * 4 + 36)) data/shard_01.rec
torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs at_train.py --data data --loader rec --workers 2 \
  --persistent-workers --no-shuffle --epochs 3 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
