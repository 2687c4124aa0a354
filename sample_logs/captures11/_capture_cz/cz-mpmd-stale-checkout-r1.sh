#!/bin/bash
# Open MPI MPMD launch (colon syntax): rank 0 runs the current checkout (app/cz_train.py), rank 1 a stale copy
# left on the second host's scratch (app-stale/cz_train.py, one release older: its model still has the
# LayerNorm after the first Linear that the current release dropped). --bind-to none, plain console, '|'-separated Python logging on stderr.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p app app-stale; cp cz_train.py app/
sed 's/nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)/nn.Linear(16, 32), nn.LayerNorm(32), nn.ReLU(), nn.Linear(32, 4)/' cz_train.py > app-stale/cz_train.py
# (-x in Open MPI 4.1's MPMD syntax applies to its own app context only: repeated per context)
X="-x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29989 -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS"
timeout -s TERM 60 nice mpirun --allow-run-as-root --bind-to none \
  -np 1 $X $PY app/cz_train.py --log-style pipe --steps 10 --pg-timeout 20 : \
  -np 1 $X $PY app-stale/cz_train.py --log-style pipe --steps 10 --pg-timeout 20 > console.log 2>&1
rc mpirun $?
