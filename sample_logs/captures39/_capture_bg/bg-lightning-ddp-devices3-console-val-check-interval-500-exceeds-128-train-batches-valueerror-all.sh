#!/bin/bash
# python bg_pl.py --devices 3 --val-check-interval 500: Lightning Trainer(accelerator="cpu", devices=3,
# strategy="ddp", val_check_interval=500, max_epochs=3); Lightning's launcher re-runs the script for ranks 1 and 2;
# one combined console. Each rank's shard gives 128 training batches per epoch, fewer than val_check_interval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 3 --rows 4096 > prep.log
$PY bg_pl.py --devices 3 --max-epochs 3 --val-check-interval 500 > console.log 2>&1
rc python $?
