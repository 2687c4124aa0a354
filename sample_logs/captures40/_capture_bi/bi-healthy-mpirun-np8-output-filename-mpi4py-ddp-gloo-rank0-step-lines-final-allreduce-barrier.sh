#!/bin/bash
# mpirun -np 8 --output-filename mpilogs python bi_ddp.py --mpi: 8 ranks (rank/size from mpi4py), DDP over gloo,
# Python logging (rank 0 logs the step lines, every rank its start/finish). Open MPI writes each rank's stdout/stderr
# under mpilogs/1/rank.N/ and still echoes to mpirun's console (console.log). No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 8 --rows 1024 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 8 --output-filename mpilogs -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29699 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bi_ddp.py --mpi --steps 150 --log-every 25 --pg-timeout 120 > console.log 2>&1
rc mpirun $?
