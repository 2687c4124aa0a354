#!/bin/bash
# torchx run --scheduler local_cwd dist.ddp -j 1x2 (torchx's built-in DDP component: one replica running torchrun
# with 2 workers); console.log = torchx's own output (role/replica-prefixed worker lines); torchx also writes its
# per-replica logs under --log_dir (kept as tx_logs/).
# Planted: rank 1's batch at step 6 carries label 7 in a 4-class problem.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $V/torchx run --scheduler local_cwd --scheduler_args log_dir=$J/tx_logs dist.ddp -j 1x2 \
  --script da_train.py -- --steps 12 --pg-timeout 30 --fault bad_label --fault-rank 1 --fault-step 6 > console.log 2>&1
rc launcher $?
