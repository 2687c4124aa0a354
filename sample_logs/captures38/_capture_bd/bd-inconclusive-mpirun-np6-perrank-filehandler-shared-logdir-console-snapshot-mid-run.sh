#!/bin/bash
# mpirun -np 6 --oversubscribe (Open MPI starts the ranks; DDP over gloo via env://) bd_train.py, 3000 steps; every
# rank logs through Python logging to its own FileHandler in the shared logs/ dir, rank 0 also to the console
# (mpirun's console in console.log). Nothing is wrong: ~25 s in (mid-run) console.log and logs/ are copied as a
# snapshot (snapshot/), as someone looking at a job still running would; the job is stopped afterwards (not captured).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 6 --rows 6400 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 6 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29771 -x PYTHONUNBUFFERED \
  -x OMP_NUM_THREADS -x PATH $PY bd_train.py --data data --steps 3000 --log-every 50 --pg-timeout 120 \
  --step-sleep 0.01 > console.log 2>&1 & M=$!
sleep 25; mkdir -p snapshot; cp console.log snapshot/; cp -r logs snapshot/
kill -TERM $M; wait $M; rc mpirun $?
