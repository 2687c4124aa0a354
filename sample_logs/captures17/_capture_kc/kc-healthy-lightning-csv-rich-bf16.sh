#!/bin/bash
# Plain Lightning Trainer script (kc_lit_fit.py), strategy ddp, 2 CPU processes, precision bf16-mixed, CSVLogger
# (csv_logs/tabular/version_0/metrics.csv + hparams.yaml), RichProgressBar (leave=True) and LearningRateMonitor
# without an LR scheduler, Python warnings filter "default" (every warning category shown): a warnings-heavy console.
# Nothing planted: a healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 170 nice $PY kc_lit_fit.py > console.log 2>&1
rc fit $?
