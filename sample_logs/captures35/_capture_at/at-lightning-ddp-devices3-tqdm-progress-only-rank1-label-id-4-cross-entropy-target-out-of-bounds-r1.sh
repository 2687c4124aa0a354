#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy(timeout=30 s)): Lightning re-launches the
# script for ranks 1 and 2; one console. No logging of its own: only Lightning's startup lines and the TQDM
# progress bar (TQDMProgressBar, rank 0). Rank 1's shard has 3 rows labelled 4 (a fifth class added upstream; the model has 4 outputs):
# cross_entropy raises IndexError (Target 4 is out of bounds) on rank 1 in the batch that holds one; rank 0 and 2 then
# block in the gradient allreduce until the 30 s gloo timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 3 --rows 256 --extra-label-shard 1 > prep.log
export MASTER_PORT=29761 COLUMNS=120
$PY at_pl.py --data data --devices 3 --max-epochs 3 --pg-timeout 30 > console.log 2>&1
rc train $?
