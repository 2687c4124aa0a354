#!/bin/bash
# torchrun x3 --log-dir logs --redirects 3 --tee 3 (console.log = agent + [defaultN] prefixed copies); Python
# logging with a JSON formatter on stderr. Rank 1 runs under RLIMIT_AS 1200 MiB (set by the trainer at start,
# as a per-rank memory cap); at step 5 every rank builds a 600 MiB feature cache: rank 1 gets MemoryError.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29913 --log-dir logs --redirects 3 --tee 3 \
  x_train.py --steps 10 --pg-timeout 30 --log-style json --fault rlimit_as --fault-rank 1 --fault-step 5 \
  --as-mb 1200 --buf-mb 600 > console.log 2>&1
rc launcher $?
