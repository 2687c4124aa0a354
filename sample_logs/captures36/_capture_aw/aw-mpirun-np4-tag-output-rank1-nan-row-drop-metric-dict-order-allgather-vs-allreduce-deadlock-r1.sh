#!/bin/bash
# mpirun -np 4 --tag-output (one console, each line tagged [jobid,rank]<stdout|stderr>:), torch DDP over gloo
# (rank/world from the OMPI_COMM_WORLD_* variables), gloo timeout 30 s. At the end of each epoch the trainer syncs its
# metrics dict in insertion order: tensors with all_reduce, the per-rank dropped-row count with all_gather_object.
# Rank 1's shard has 7 rows with missing features, dropped at load time: the "dropped_rows" key is inserted into
# rank 1's dict before the loss/accuracy tensors, so rank 1 enters all_gather_object while ranks 0, 2, 3 enter
# all_reduce. Nobody progresses until the gloo timeout fires on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY aw_prep.py --out data --shards 4 --rows 256 --nan-rows-shard 1 > prep.log
mpirun -np 4 --oversubscribe --bind-to none --tag-output -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29761 \
  $PY aw_train.py --data data --epochs 3 --drop-nan-rows --epoch-metrics --pg-timeout 30 --log-style print > console.log 2>&1
rc mpirun $?
