#!/bin/bash
# accelerate launch --config_file acc_2proc.yaml --main_process_port 29871 (2 processes, torchrun code path, gloo on
# CPU). asctime logging on stderr. console.log = accelerate's console.
# Alarming but harmless: rank 0 POSTs the global metrics every 4 steps to the metrics sink at 127.0.0.1:8093, which
# the job script starts 9 s late (it is still coming up when the first pushes are made): connection-refused
# WARNINGs, retries (up to 5, 1 s apart), then `succeeded on attempt N`. Plus a UserWarning from rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE"/acc_2proc.yaml .
(sleep 9; exec $PY metrics_sink.py 8093) & sink=$!
timeout -s TERM 120 nice $V/accelerate launch --config_file acc_2proc.yaml --main_process_port 29871 \
  ja_train.py --steps 20 --metrics-every 4 --push http://127.0.0.1:8093/metrics --warn-extra --pg-timeout 30 \
  > console.log 2>&1
rc accelerate $?
kill $sink
