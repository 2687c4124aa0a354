#!/bin/bash
# torchrun x3 in module mode (-m cz_train), c10d rendezvous on 127.0.0.1, console redirected to train.log
# (no --tee: worker output unprefixed, uncaught tracebacks carry torch's '[rankN]:' prefix).
# Planted: at step 6 rank 0 writes metrics.json with the loss still a tensor: json.dump raises TypeError;
# ranks 1, 2 are in step 7's all-reduce. 20 s process-group timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 60 nice $TR --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29984 \
  -m cz_train --log-style syslog --steps 10 --pg-timeout 20 --fault json_metrics --fault-rank 0 --fault-step 6 > train.log 2>&1
rc launcher $?
