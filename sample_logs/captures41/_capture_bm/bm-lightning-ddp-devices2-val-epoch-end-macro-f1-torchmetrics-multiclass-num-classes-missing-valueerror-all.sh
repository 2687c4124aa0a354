#!/bin/bash
# python bm_pl.py --devices 2 --strategy ddp --val-f1: Lightning Trainer(accelerator="cpu", devices=2, strategy="ddp"),
# one combined console, progress bar. A macro-F1 added to on_validation_epoch_end calls
# torchmetrics.functional.f1_score(preds, target, task="multiclass", average="macro") without num_classes: torchmetrics
# refuses it on every rank in the sanity-check validation before training starts.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 2 --rows 2048 > prep.log
$PY bm_pl.py --devices 2 --strategy ddp --max-epochs 3 --val-f1 --progress > console.log 2>&1
rc python $?
