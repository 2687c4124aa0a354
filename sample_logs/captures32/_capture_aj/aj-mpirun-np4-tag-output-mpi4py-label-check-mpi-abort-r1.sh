#!/bin/bash
# Open MPI mpirun -np 4 (mpi4py for rank/size and for MPI Abort, torch gloo env:// for the training), one combined
# console with --tag-output ([jobid,rank]<stdout|stderr>: prefixes). Fault: rank 1's CSV shard carries label 12 at row 77 (10 classes); rank 1's label
# check logs an error and calls MPI_COMM_WORLD.Abort(3), mpirun kills the other ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aj_make_csv.py data 4 480 --label 1:77:12
mpirun --allow-run-as-root --oversubscribe --tag-output -np 4 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29577 -x PYTHONUNBUFFERED \
  -x OMP_NUM_THREADS -x PATH $PY aj_train.py --data 'data/shard-{rank}.csv' --check-labels --classes 10 --epochs 3 \
  --log-every 5 --fmt '%(asctime)s rank{rank}/{world} %(levelname).1s %(message)s' > mpirun.console 2>&1
rc mpirun $?
