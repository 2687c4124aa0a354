#!/bin/bash
# Lightning Trainer(strategy="ddp_notebook") x2 on CPU (forked processes, gloo), detect_anomaly=True, one
# console.log (Lightning banners, Python logging lines with the process name).
# Planted: learning rate 0.01 in the launch config for a regression whose inputs are not normalised (x*3) with
# momentum 0.9: the loss grows and the backward pass returns nan at the same step on both ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 60 nice $PY cz_pl.py --strategy ddp_notebook --devices 2 --lr 0.01 --epochs 3 --anomaly > console.log 2>&1
rc python $?
