#!/bin/bash
# torchrun x3 (no --tee), its console piped through 'tee train.log' (the usual 'torchrun ... 2>&1 | tee'),
# workers log '[asctime][rank R/W][LEVEL] msg' on stdout (unprefixed in the console).
# Planted: an inf in rank 2's batch at step 7: rank 2's loss check raises FloatingPointError before the
# backward; ranks 0, 1 are left in DDP's gradient all-reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
set -o pipefail
nice $TR --standalone --nproc-per-node 3 cx_train.py --log-style bracket --steps 14 --pg-timeout 30 \
  --fault nan --fault-rank 2 --fault-step 7 2>&1 | tee train.log > /dev/null
rc launcher $?
