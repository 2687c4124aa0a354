#!/bin/bash
# Open MPI mpirun -np 2 (--bind-to none, rank from OMPI_COMM_WORLD_RANK, env:// rendezvous via -x MASTER_*),
# plain console (no tags), syslog-style worker lines; a healthy 400-step run under `timeout -s TERM 25`
# (the wall-clock limit of a batch allocation).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 25 nice mpirun --allow-run-as-root --bind-to none -np 2 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29986 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY cz_train.py --log-style syslog --steps 400 --pg-timeout 20 > console.log 2>&1
rc timeout_mpirun $?
