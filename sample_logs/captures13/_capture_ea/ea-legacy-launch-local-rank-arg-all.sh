#!/bin/bash
# python -m torch.distributed.launch (the deprecated legacy launcher) x2, no --use-env: it appends
# `--local-rank=<n>` to every worker's argv. ea_train.py's argparse does not declare it (the script was written for
# torchrun). console.log = the launcher's and the workers' output.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $PY -m torch.distributed.launch --nproc-per-node 2 --master-port 29741 ea_train.py \
  --steps 12 --pg-timeout 30 --log-style iso > console.log 2>&1
rc launcher $?
