#!/bin/bash
# mpirun -np 3 --tag-output (one console, each line tagged [jobid,rank]<stdout|stderr>:). The job's run command
# passes --tensorboard tb (copied from the cluster's launch template); this environment has no tensorboard package,
# so every rank fails at `from torch.utils.tensorboard import SummaryWriter` before the process group is up.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY at_prep.py --out data --shards 3 --rows 256 > prep.log
mpirun -np 3 --oversubscribe --bind-to none --tag-output -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29751 \
  $PY at_train.py --data data --epochs 3 --tensorboard tb --pg-timeout 60 > console.log 2>&1
rc mpirun $?
