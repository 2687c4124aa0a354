#!/bin/bash
# mpirun -np 4 --output-filename logs (per-rank stdout/stderr files) running a Lightning Trainer(strategy="ddp",
# devices=4): Lightning detects the MPI environment through mpi4py (no re-launch). Healthy run, with the usual
# warnings (dataloader workers, sync_dist, deprecations).
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY am_prep.py --out data --shards 4 --rows 256 > prep.log
mpirun -np 4 --oversubscribe --bind-to none --output-filename logs -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  $PY am_pl.py --data data --devices 4 --max-epochs 3 > mpirun.console 2>&1
rc mpirun $?
