#!/bin/bash
# mpirun -np 3 (Open MPI, untagged, --merge-stderr-to-stdout) of python ia_train.py --init mpi: rank/size from mpi4py's
# COMM_WORLD, rank 0 picks a free port and broadcasts MASTER_ADDR/PORT over MPI, then torch.distributed (gloo) is
# initialised from that env (pg timeout 20 s). asctime logging on stderr + a RotatingFileHandler per rank
# (logs/train-rank<R>.log). console.log = mpirun's output.
# Planted: a stale dataset-cache lock for rank 2 (cache/shard-2.lock, left by a killed earlier run, pid 31337) ; each
# rank waits up to 60 s for its shard's cache lock before building its data, so rank 2 idles past the 20 s gloo timeout
# while ranks 0 and 1 are already in the first step's gradient all-reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p cache
echo "pid 31337 host vm (cache build started 2026-12-06 07:41:12)" > cache/shard-2.lock
timeout -s TERM 120 nice mpirun --allow-run-as-root --oversubscribe --merge-stderr-to-stdout -np 3 -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  python ia_train.py --init mpi --steps 10 --pg-timeout 20 --lock 'cache/shard-{rank}.lock' --lock-wait 60 \
  --log-file 'logs/train-rank{rank}.log' > console.log 2>&1
rc mpirun $?
