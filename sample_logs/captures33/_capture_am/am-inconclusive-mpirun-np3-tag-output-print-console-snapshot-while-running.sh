#!/bin/bash
# mpirun -np 3 --tag-output, one console; a long run (40 epochs). The console is copied 25 s after start while
# the job is still training (snapshot), then the job is stopped (the stop is not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY am_prep.py --out data --shards 3 --rows 512 > prep.log
mpirun -np 3 --oversubscribe --bind-to none --tag-output -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29590 \
  $PY am_train.py --data data --epochs 40 --step-sleep 0.2 --log-style print --ckpt ckpt > run.console 2>&1 & M=$!
sleep 25; mkdir -p snapshot; cp run.console snapshot/console.log
kill -TERM $M; wait $M; rc mpirun $?
