#!/bin/bash
# LightningCLI (`python kc_lit.py fit --config kc_cli_tabular.yaml`), strategy ddp, accelerator cpu, devices 2:
# Lightning's subprocess-script launcher re-runs the same command line for local rank 1, both ranks print to the one
# console (console.log); Lightning's default TensorBoard/CSV logger dir runs/tabular/.
# Planted: the YAML says model.in_features: 32 (comment: "v3 features: 24 base + 8 derived") while the data module
# still produces 24 features: the first linear layer cannot take the batch on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $PY kc_lit.py fit --config kc_cli_tabular.yaml > console.log 2>&1
rc lightningcli $?
