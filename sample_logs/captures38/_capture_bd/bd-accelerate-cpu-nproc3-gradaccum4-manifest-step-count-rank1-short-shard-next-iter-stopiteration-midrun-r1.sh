#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (MULTI_CPU, gloo) bd_acc.py: a plain accelerate loop with
# gradient_accumulation_steps=4, micro-batch 16; every rank reads its own shard with next(train_iter) and the number of
# optimizer steps comes from data/manifest.json (9600 rows per shard -> 150 steps). Rank 1's shard was re-exported
# after a de-duplication pass and holds 8000 rows (manifest not updated): its iterator is exhausted at optimizer step
# 125 and next() raises a bare StopIteration on rank 1; the elastic agent under accelerate then SIGTERMs ranks 0 and 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 3 --rows 9600 > prep.log
$PY - <<'PY'
import json, numpy as np
d = np.load("data/shard_01.npz"); np.savez("data/shard_01.npz", x=d["x"][:8000], y=d["y"][:8000])
json.dump({"name": "sensors-v3", "shards": 3, "rows_per_shard": 9600, "features": 16}, open("data/manifest.json", "w"))
PY
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29741 bd_acc.py --data data --grad-accum 4 --micro-batch 16 > console.log 2>&1
rc accelerate $?
