#!/bin/bash
# LightningCLI: `python ea_cli.py fit --config cli_monitor.yaml` (trainer: cpu, devices 2, strategy ddp over gloo;
# Lightning re-runs the script for rank 1); console.log = both processes' output; CSVLogger under runs/tiny/.
# Planted: the YAML's ModelCheckpoint monitors `val_acc`, but the model logs `val/acc` (renamed metric keys).
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE"/cli_*.yaml .
timeout -s TERM 100 nice $PY ea_cli.py fit --config cli_monitor.yaml > console.log 2>&1
rc launcher $?
