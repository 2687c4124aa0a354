#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=4, strategy="ddp"): Lightning re-launches the script for ranks 1-3;
# one console. The model's hidden block runs under torch.utils.checkpoint (use_reentrant=False); the script's own
# messages are JSON lines (logging + JSON formatter). Healthy run with the usual warnings.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 4 --rows 256 > prep.log
export MASTER_PORT=29661
$PY ap_pl.py --data data --devices 4 --max-epochs 3 > console.log 2>&1
rc train $?
