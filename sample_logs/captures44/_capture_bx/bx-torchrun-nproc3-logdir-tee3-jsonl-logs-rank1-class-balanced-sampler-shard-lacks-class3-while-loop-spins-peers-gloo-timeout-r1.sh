#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bx_train.py --log-format json --balanced-from-epoch 1:
# 3 ranks, DDP over gloo (pg timeout 20 s), JSON-lines logging on stdout. From epoch 1 each rank rebuilds a
# class-balanced sampler that draws indices until every class has 16 picks. Rank 1's shard was filtered upstream and
# has no class-3 rows (bx_prep.py --drop-class-shard 1): its draw loop never ends (CPU-bound, no error), so ranks 0 and
# 2 wait in the first all-reduce of epoch 1 and hit the gloo timeout; torchrun then SIGTERMs rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 3 --rows 512 --drop-class-shard 1 > prep.log
torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bx_train.py --data data --log-format json --epochs 4 \
  --balanced-from-epoch 1 --log-every 8 --pg-timeout 20 > console.log 2>&1
rc torchrun $?
