#!/bin/bash
# mpirun --oversubscribe -np 4 --tag-output python bu_train.py --mpi --num-workers 3 --style print --eval: 4 ranks (rank/size from
# mpi4py), DDP over gloo, each DataLoader with 3 workers on a 2-CPU box (torch warns about the suggested maximum
# worker count), c10d socket hostname warnings. Runs to the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false
$PY bu_prep.py --out data --shards 4 --rows 512 > prep.log
mpirun --oversubscribe -np 4 --tag-output $PY bu_train.py --mpi --master-port 29751 --data data --style print --epochs 2 --log-every 8 --num-workers 3 --eval --pg-timeout 60 > console.log 2>&1
rc mpirun $?
