#!/bin/bash
# Lightning Trainer(strategy="ddp", devices=2). An earlier sweep run with --hidden 256 (earlier_run.log) wrote
# sweep/clf/version_0/checkpoints/last.ckpt. The job then continues "from the last checkpoint" with the default model
# size: `python bm_pl.py --devices 2 --strategy ddp --hidden 64 --max-epochs 4 --ckpt-path <that last.ckpt>`; restoring the
# state dict fails on every rank (size mismatch).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 2 --rows 1024 > prep.log
$PY bm_pl.py --devices 2 --strategy ddp --hidden 256 --max-epochs 1 --ckpt --root sweep > earlier_run.log 2>&1
rc earlier $?
$PY bm_pl.py --devices 2 --strategy ddp --hidden 64 --max-epochs 4 --ckpt --ckpt-path sweep/clf/version_0/checkpoints/last.ckpt > console.log 2>&1
rc python $?
