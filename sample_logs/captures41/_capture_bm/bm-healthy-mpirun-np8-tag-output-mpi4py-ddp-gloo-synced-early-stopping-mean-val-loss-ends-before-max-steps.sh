#!/bin/bash
# mpirun -np 8 --tag-output python bm_ddp.py --mpi --eval-every 25 --early-stop-patience 2 --sync-early-stop: 8 ranks
# (rank/size from mpi4py), DDP over gloo, Python logging. Every 25 steps each rank evaluates, the val loss is averaged
# over ranks with an allreduce and every rank applies the same early-stopping decision, so all leave the loop at the
# same step and run the final allreduce + barrier. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 8 --rows 1024 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 8 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29713 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bm_ddp.py --mpi --steps 1000 --log-every 25 --eval-every 25 \
  --val-file data/val.npz --early-stop-patience 2 --sync-early-stop --min-delta 0.01 --lr 0.02 --pg-timeout 120 > console.log 2>&1
rc mpirun $?
