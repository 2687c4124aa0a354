#!/bin/bash
# mpirun -np 3 --output-filename mpilogs (Open MPI per-rank files mpilogs/1/rank.N/{stdout,stderr}); the ranks are
# mpi4py programs that set up torch.distributed (gloo) from MPI (rank 0 broadcasts the tcp:// init URL over
# MPI.COMM_WORLD); console.log = mpirun's console (forwarded rank output + mpirun's own messages).
# Planted: 6 rows of rank 2's shard (data/shard-2.npy) hold raw unnormalised values (x 1e19) from a sensor export that
# skipped standardisation; the forward pass on a batch containing one overflows and the loss on rank 2 is NaN; the
# per-rank guard then calls MPI Abort.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY mc_make_npy_shards.py data 3 --outliers 2:6:1e19 > prep.txt
timeout -s TERM 170 nice mpirun --allow-run-as-root --oversubscribe -np 3 --bind-to none --mca btl self,vader \
  --mca oob_tcp_if_include lo --output-filename mpilogs -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH \
  $PY mc_mpi_nan.py > console.log 2>&1
rc mpirun $?
