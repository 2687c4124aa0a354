#!/bin/bash
# python bi_pl.py --devices 2 --strategy ddp_spawn --ckpt --progress: Lightning Trainer(accelerator="cpu", devices=2,
# strategy="ddp_spawn"), progress bar, CSVLogger, ModelCheckpoint(monitor="val_acc", top 2 + last), 3 epochs, one
# combined console. No fault (no --augment, so the datamodule pickles fine).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 2 --rows 2048 > prep.log
$PY bi_pl.py --devices 2 --strategy ddp_spawn --max-epochs 3 --ckpt --progress > console.log 2>&1
rc python $?
ls -R runs > runs_tree.txt
