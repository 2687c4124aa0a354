#!/bin/bash
# python bg_pl.py --devices 2 --max-epochs 3: Lightning Trainer(accelerator="cpu", devices=2, strategy="ddp"), default
# progress bar and default logger (CSVLogger here: tensorboard not installed), one combined console. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 2 --rows 4096 > prep.log
$PY bg_pl.py --devices 2 --max-epochs 3 > console.log 2>&1
rc python $?
