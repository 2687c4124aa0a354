#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy(timeout=30 s)) started with plain `python`
# (Lightning re-launches the script for ranks 1-2), progress bar off, one console. The model caps hidden activations
# of outlier batches with an in-place clamp_ on the ReLU output (--act-cap 4). Only rank 1's shard has features in a
# wider range (x6, exported before standardisation): its first batch takes the clamp_ branch and backward raises
# "one of the variables needed for gradient computation has been modified by an inplace operation" on rank 1.
# Ranks 0 and 2, in the DDP gradient allreduce, see the connection to rank 1 close.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 3 --rows 256 --scale-shard 1 > prep.log
python aw_pl.py --data data --devices 3 --max-epochs 3 --act-cap 4 --pg-timeout 30 > console.log 2>&1
rc python $?
