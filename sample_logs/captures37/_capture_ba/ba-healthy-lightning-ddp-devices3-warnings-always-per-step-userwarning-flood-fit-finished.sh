#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy()) (Lightning re-launches the script for ranks
# 1 and 2 as subprocesses), started with plain `python ba_pl.py ... --warnings-always` (warnings.simplefilter("always") at fit start, left on from a
# debugging session), progress bar off, one console. The module's hand-written label smoothing calls torch.tensor() on a tensor and
# F.log_softmax() without dim= in every training step: with the filter at "always" each of the 3 ranks prints both
# UserWarnings on every step (hundreds of warning lines) plus Lightning's usual ones. Training and validation run
# normally; fit ends and rank 0 prints the final callback metrics; exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 3 --rows 512 > prep.log
python ba_pl.py --data data --devices 3 --strategy ddp --soft-targets --warnings-always --max-epochs 4 \
  --pg-timeout 60 > console.log 2>&1
rc python $?
