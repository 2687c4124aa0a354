#!/bin/bash
# torch.multiprocessing.spawn x3 (cz_train.py --spawn 3); each process logs only to logs/rank_{r}.txt (Python
# logging, ' | '-separated format); the console keeps spawn's report and what C++ writes to stderr.
# Planted: at step 5 every rank all_gathers its per-class counts; rank 2's class table has an extra 'unknown'
# bucket (5 floats vs 4).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 60 nice $PY cz_train.py --spawn 3 --port 29981 --steps 10 --pg-timeout 20 \
  --log-file 'logs/rank_{rank}.txt' --fault gather_shape --fault-rank 2 --fault-step 5 > console.log 2>&1
rc spawn $?
