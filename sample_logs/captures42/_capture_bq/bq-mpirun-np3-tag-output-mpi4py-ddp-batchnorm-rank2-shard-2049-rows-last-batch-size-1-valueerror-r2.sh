#!/bin/bash
# mpirun -np 3 --tag-output python bq_ddp.py --mpi --epochs 2 --bn: DDP over gloo (rank/size from mpi4py), model with
# BatchNorm1d, each rank walks its shard in order with batch 32 and keeps the last partial batch. Rank 2's shard has
# 2049 rows (bq_prep.py --rows-shard 2:2049), so its 65th batch holds one row and BatchNorm refuses it in training mode.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bq_prep.py --out data --shards 3 --rows 2048 --rows-shard 2:2049 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 3 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29733 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bq_ddp.py --mpi --epochs 2 --bn --log-every 16 --lr 0.02 --pg-timeout 60 > console.log 2>&1
rc mpirun $?
