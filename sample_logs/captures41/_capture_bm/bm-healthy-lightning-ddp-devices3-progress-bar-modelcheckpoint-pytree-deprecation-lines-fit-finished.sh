#!/bin/bash
# python bm_pl.py --devices 3 --strategy ddp --ckpt --progress --max-epochs 3: Lightning Trainer(accelerator="cpu",
# devices=3, strategy="ddp"), progress bar, CSVLogger, ModelCheckpoint(val_loss, top 1 + last), one combined console.
# No fault: the run prints deprecation lines from Lightning internals and ends normally.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 3 --rows 1024 > prep.log
$PY bm_pl.py --devices 3 --strategy ddp --max-epochs 3 --ckpt --progress > console.log 2>&1
rc python $?
