#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
python ag_train.py --spawn 4 --port 29633 --style print --epochs 2 --steps 40 --prefetch \
  --prefetch-bug-rank 2 --prefetch-bug-step 31 --pg-timeout 20 > spawn.log 2>&1
rc spawn $?
