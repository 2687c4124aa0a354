#!/bin/bash
# mpirun -np 2 --tag-output --timestamp-output (Open MPI prefixes every line with [jobid,rank]<stdout|stderr>: and a
# timestamp), no mpi4py: lc_train.py takes rank/world from OMPI_COMM_WORLD_* and rendezvouses over gloo at
# MASTER_ADDR/MASTER_PORT passed with -x. console.log = everything mpirun printed.
# Each rank holds out 2 % of its shard for an eval every 4 steps (eval loss all_reduce); a rank whose held-out split
# is empty logs a warning and skips the eval.
# Planted: rank 1's shard is a short tail shard (45 records): its eval split is empty, so at step 4 it skips the
# eval all_reduce that rank 0 enters - the ranks' collective sequences diverge.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY lc_make_data.py data 2 --n 400 > prep.txt
$PY - <<'EOP'
import numpy as np
z = dict(np.load("data/part-00001.npz")); np.savez("data/part-00001.npz", x=z["x"][:45], y=z["y"][:45])
EOP
timeout -s TERM 150 nice mpirun --allow-run-as-root --oversubscribe -np 2 --tag-output --timestamp-output \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29577 -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH \
  $PY lc_train.py --data-dir data --eval-every 4 --eval-frac 0.02 --epochs 10 --steps 12 --pg-timeout 30 > console.log 2>&1
rc mpirun $?
