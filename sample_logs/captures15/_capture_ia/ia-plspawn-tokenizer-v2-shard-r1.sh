#!/bin/bash
# python ia_pl.py: Lightning Trainer(strategy="ddp_spawn", devices=2, accelerator="cpu") - the processes are started
# by torch.multiprocessing.spawn from inside the script, no external launcher. console.log = the script's stdout +
# stderr (Lightning's rank-zero messages, `[shard]` prints, tracebacks).
# Planted: rank 1's pre-tokenized shard data/shard-01.npz was produced with the newer tokenizer (wordpiece-1280-v2,
# ids up to 1279) while the model's embedding table has the v1 vocab of 1000 rows; rank 0's shard is v1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ia_pl.py --make-data data --world 2 --v2-rank 1 > make_data.out 2>&1
timeout -s TERM 120 nice $PY ia_pl.py --data data --vocab 1000 --epochs 2 > console.log 2>&1
rc python $?
