#!/bin/bash
# mpirun -np 3 --tag-output python bi_ddp.py --mpi (rank/size from mpi4py, DDP over gloo, Python logging; only rank 0
# logs the step lines). Rank 0 writes its scalars to a sqlite metrics db (metrics.db, busy timeout 2 s) every 20
# steps. A metrics exporter (bi_exporter.py, started beside the job like the dashboard sidecar) snapshots the db inside
# a read transaction and streams the rows slowly to its spool; while it holds the shared lock rank 0's commit waits
# 2 s and fails with "database is locked".
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 3 --rows 2048 > prep.log
$PY bi_exporter.py metrics.db spool.csv > exporter.log 2>&1 & EXP=$!
mpirun --allow-run-as-root --oversubscribe -np 3 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29655 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bi_ddp.py --mpi --steps 600 --log-every 20 --step-sleep 0.02 \
  --metrics-db metrics.db --pg-timeout 60 > console.log 2>&1
rc mpirun $?
kill $EXP 2>/dev/null; wait $EXP 2>/dev/null
