#!/bin/bash
# mpirun -np 2 --output-filename out (Open MPI writes out/1/rank.N/stdout and stderr per rank; the console file of
# mpirun itself is launcher.log), torch DDP over gloo, a long run (60 epochs). 15 s after the start the out/ tree is
# copied (snapshot/) while the job is still training; the job is then stopped (the stop is not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY aw_prep.py --out data --shards 2 --rows 512 > prep.log
setsid mpirun -np 2 --oversubscribe --bind-to none --output-filename out -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29811 \
  $PY aw_train.py --data data --epochs 60 --step-sleep 0.1 --pg-timeout 60 > launcher.log 2>&1 & P=$!
sleep 15; mkdir -p snapshot; cp -r out snapshot/; cp launcher.log snapshot/
kill -TERM -- -$P; wait $P; rc mpirun $?
