#!/bin/bash
# python bi_pl.py --devices 3 --strategy ddp --history metrics_history.json: Lightning Trainer(accelerator="cpu",
# devices=3, strategy="ddp"), no progress bar, CSVLogger, one combined console. A custom rank-zero-only callback
# (MetricsHistory.on_train_epoch_end) dumps trainer.callback_metrics to a JSON file; the values are tensors, so
# json.dump raises TypeError on rank 0 at the end of epoch 0. No planted fault beyond that code bug.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 3 --rows 2048 > prep.log
$PY bi_pl.py --devices 3 --strategy ddp --max-epochs 3 --history metrics_history.json > console.log 2>&1
rc python $?
