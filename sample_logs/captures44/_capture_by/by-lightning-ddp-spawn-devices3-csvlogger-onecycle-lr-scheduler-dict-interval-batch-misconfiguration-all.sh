#!/bin/bash
# python by_pl.py --devices 3 --strategy ddp_spawn --sched onecycle --sched-interval batch: Lightning DDP-spawn on CPU
# (gloo), 3 ranks, CSVLogger. configure_optimizers returns the OneCycleLR in an lr_scheduler dict with
# "interval": "batch" (a Keras-style value; Lightning accepts only "step" or "epoch"), which Lightning rejects
# when it sets up the optimizers in every spawned process.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 3 --rows 1024 > prep.log
$PY by_pl.py --devices 3 --strategy ddp_spawn --max-epochs 4 --sched onecycle --sched-interval batch --progress > console.log 2>&1
rc python $?
