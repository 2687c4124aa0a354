#!/bin/bash
# mpirun --xml (Open MPI 4.1.4) -np 3 --oversubscribe: every line of every rank is wrapped as
# <stdout rank="R">...&#010;</stdout> / <stderr rank="R">...</stderr> inside <mpirun>...</mpirun>; console.log =
# mpirun's output. PYTHONFAULTHANDLER=1. ea_train.py maps OMPI_COMM_WORLD_* to RANK/WORLD_SIZE (env:// rdzv).
# Planted: rank 2's batch at step 6 is all padding; the native token-length normaliser (libtoknorm.so, gcc -O0)
# divides by the zero valid-token count: SIGFPE.
. "$(dirname "$(readlink -f "$0")")/common.sh"
gcc -O0 -shared -fPIC -o libtoknorm.so "$HERE/toknorm.c"
ulimit -c 0
timeout -s TERM 100 nice /usr/bin/mpirun --allow-run-as-root --oversubscribe --xml -np 3 \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29771 -x PYTHONFAULTHANDLER=1 -x PYTHONUNBUFFERED=1 -x OMP_NUM_THREADS=1 \
  $PY ea_train.py --steps 12 --pg-timeout 30 --log-style iso --fault sigfpe --fault-rank 2 --fault-step 6 \
  > console.log 2>&1
rc launcher $?
