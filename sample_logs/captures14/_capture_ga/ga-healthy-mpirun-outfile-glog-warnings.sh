#!/bin/bash
# mpirun -np 3 --output-filename mpilogs (Open MPI 4.1.4): each rank's stdout/stderr in mpilogs/1/rank.<R>/{stdout,stderr}
# (plus mpirun's own console output in console.log); workers log glog-style to stderr.
# Healthy run with alarming lines: FutureWarning (rank 0), a caught ConnectionRefusedError logged at ERROR with its
# traceback, a grad-norm WARNING, and rank 1's hard-negative mining hitting MemoryError on an 80000x80000 matrix
# (23.8 GiB > 23 GiB RAM) and falling back to sampled chunked mining.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 100 nice /usr/bin/mpirun --allow-run-as-root --oversubscribe -np 3 --output-filename mpilogs \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29831 -x PYTHONUNBUFFERED=1 -x OMP_NUM_THREADS=1 \
  $PY ga_train.py --steps 12 --sleep 0.2 --pg-timeout 30 --log-style glog --mine --shard-rows 4096,80000,4096 --warnings \
  > console.log 2>&1
rc launcher $?
