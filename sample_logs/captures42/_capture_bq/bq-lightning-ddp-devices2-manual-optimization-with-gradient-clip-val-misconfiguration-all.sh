#!/bin/bash
# python bq_pl.py --devices 2 --strategy ddp --manual-opt --clip 1.0: Lightning Trainer(accelerator="cpu", devices=2,
# strategy="ddp", gradient_clip_val=1.0) while the LightningModule switched to manual optimization
# (automatic_optimization = False). Lightning refuses the combination at fit start on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bq_prep.py --out data --shards 2 --rows 2048 > prep.log
$PY bq_pl.py --devices 2 --strategy ddp --max-epochs 3 --manual-opt --clip 1.0 --progress > console.log 2>&1
rc python $?
