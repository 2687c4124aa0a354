#!/bin/bash
# python by_pl.py --devices 2 --strategy ddp --logger tb --sched onecycle --ckpt: Lightning DDP on CPU (gloo), 2 ranks,
# TensorBoardLogger, OneCycleLR stepped per batch, ModelCheckpoint on val_loss, 4 epochs, progress bar on. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 2 --rows 1024 > prep.log
$PY by_pl.py --devices 2 --strategy ddp --max-epochs 4 --logger tb --sched onecycle --ckpt --progress > console.log 2>&1
rc python $?
