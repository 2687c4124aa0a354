#!/bin/bash
# Lightning Trainer(strategy="ddp_notebook") x2 on CPU (forked processes, gloo), detect_anomaly=True left on,
# one console.log; healthy: learning rate 1e-4, 3 epochs, `max_epochs=3` reached, exit 0 (anomaly-mode and
# LeafSpec deprecation warnings, Lightning tips).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $PY cz_pl.py --strategy ddp_notebook --devices 2 --lr 1e-4 --epochs 3 --anomaly > console.log 2>&1
rc python $?
