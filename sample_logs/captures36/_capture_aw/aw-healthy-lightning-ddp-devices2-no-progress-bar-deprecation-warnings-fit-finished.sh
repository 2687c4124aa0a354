#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=2, strategy=DDPStrategy) started with plain `python` (Lightning
# re-launches the script for rank 1), progress bar off, one console. 4 epochs with validation; Lightning's usual
# warnings and tips are printed; fit ends and rank 0 prints the final callback metrics; exits 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 2 --rows 256 > prep.log
python aw_pl.py --data data --devices 2 --max-epochs 4 --pg-timeout 60 > console.log 2>&1
rc python $?
