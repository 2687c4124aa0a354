#!/bin/bash
# mpirun --oversubscribe -np 4 --timestamp-output python bu_train.py --mpi --style print --epochs 400 (lines give epoch and step, no
# total). ~25 s in, console.log is copied to snapshot/ as someone tailing the job would; the job is stopped afterwards
# (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false
$PY bu_prep.py --out data --shards 4 --rows 512 > prep.log
mpirun --oversubscribe -np 4 --timestamp-output $PY bu_train.py --mpi --master-port 29771 --data data --style print --epochs 400 --log-every 16 --step-sleep 0.02 > console.log 2>&1 & T=$!
sleep 25; mkdir -p snapshot; cp console.log snapshot/
kill $T; wait $T; rc mpirun $?
