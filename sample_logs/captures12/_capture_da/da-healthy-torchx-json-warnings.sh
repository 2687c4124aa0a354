#!/bin/bash
# torchx run --scheduler local_cwd dist.ddp -j 1x3, workers log one JSON object per line (logging Formatter
# subclass) on stderr; torchx prefixes them with 'da_train/0 [R]:'. Healthy run with alarming-but-harmless lines:
# a UserWarning, a WARNING, a caught + retried TimeoutError logged at ERROR with its traceback (inside the JSON 'exc'
# field), then 10 steps and 'training done'.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $V/torchx run --scheduler local_cwd --scheduler_args log_dir=$J/tx_logs dist.ddp -j 1x3 \
  --script da_train.py -- --steps 10 --pg-timeout 30 --log-style json --warnings > console.log 2>&1
rc launcher $?
