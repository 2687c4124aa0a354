#!/bin/bash
# python by_pl.py --devices 4 --strategy ddp --logger tb --optim sgd --lr 3e1 --detect-anomaly: Lightning DDP on CPU
# (gloo), 4 ranks, TensorBoardLogger, Trainer(detect_anomaly=True). The learning rate on the command line is 3e1 (a typo
# for 3e-3): the weights blow up within the first epoch on every rank and autograd's anomaly mode raises on the first
# NaN gradient.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 4 --rows 1024 > prep.log
$PY by_pl.py --devices 4 --strategy ddp --max-epochs 3 --logger tb --optim sgd --lr 3e1 --detect-anomaly > console.log 2>&1
rc python $?
