#!/bin/bash
# python bm_pl.py --devices 3 --strategy ddp_spawn --label-audit: Lightning Trainer(accelerator="cpu", devices=3,
# strategy="ddp_spawn"), no progress bar, one console. A LabelAudit callback checks every training batch's labels
# against the 4-class head. Rank 1's shard (shard_01.npz) was re-labelled with the 5-class scheme (class id 4 present,
# planted via bm_prep.py --extra-class-shard 1): the callback raises on rank 1 on its first batch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 3 --rows 2048 --extra-class-shard 1 > prep.log
$PY bm_pl.py --devices 3 --strategy ddp_spawn --max-epochs 3 --label-audit > console.log 2>&1
rc python $?
