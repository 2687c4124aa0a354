#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=3, strategy="ddp") run twice, as a job that was split in two
# allocations: train-1.log (max_epochs=3, writes last.ckpt) and train-2.log (same CSVLogger version, resumed with
# ckpt_path=last.ckpt, max_epochs=10, EarlyStopping may end it sooner), each a combined console with the progress bar
# off; plus the CSVLogger metrics.csv / hparams.yaml. Healthy: the resumed run finishes and validates the best ckpt.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aj_pl.py --devices 3 --strategy ddp --max-epochs 3 --patience 3 --version 0 --progress 0 > train-1.log 2>&1
rc python-1 $?
$PY aj_pl.py --devices 3 --strategy ddp --max-epochs 10 --patience 3 --version 0 --progress 0 \
  --ckpt-path lightning_logs/clf/version_0/checkpoints/last.ckpt > train-2.log 2>&1
rc python-2 $?
