#!/bin/bash
# torchrun x3 --tee 3 (console.log: agent + '[defaultN]:'-prefixed copies of each worker's output), workers log
# one JSON object per line on stderr ({"@timestamp","severity","rank","logger","event"}), structlog-style keys.
# Planted: rank 1's cached config gives a class table of 8 entries, ranks 0, 2 have 12; rank 0 broadcasts its
# 12-entry table at start: the broadcast's sizes differ on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --standalone --nproc-per-node 3 --tee 3 cx_train.py --log-style json --steps 8 --pg-timeout 30 \
  --fault bcast_size --fault-rank 1 > console.log 2>&1
rc launcher $?
