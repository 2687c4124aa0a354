#!/bin/bash
# Open MPI mpirun -np 2 (--bind-to none), loguru lines on stderr, plain console; healthy 12-step run with
# warnings; exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 60 nice mpirun --allow-run-as-root --bind-to none -np 2 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29988 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY cz_train.py --log-style loguru --steps 12 --pg-timeout 20 --warnings > console.log 2>&1
rc mpirun $?
