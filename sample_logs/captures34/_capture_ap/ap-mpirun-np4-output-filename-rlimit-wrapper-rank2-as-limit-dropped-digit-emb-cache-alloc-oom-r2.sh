#!/bin/bash
# mpirun -np 4 --output-filename logs (per-rank stdout/stderr files under logs/1/rank.N/ + mpirun console). Each rank
# runs under ap_rlimit.sh, which applies `ulimit -v` from rank-limits.conf (address-space cap per rank); rank 2's
# entry lost a digit (1600000 KB instead of 16000000 KB). Every rank allocates a 1024 MB embedding cache after
# the process group is up -> rank 2's allocation fails (DefaultCPUAllocator: can't allocate memory); mpirun then
# aborts the job.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY ap_prep.py --out data --shards 4 --rows 256 > prep.log
printf '0 16000000\n1 16000000\n2 1600000\n3 16000000\n' > rank-limits.conf
mpirun -np 4 --oversubscribe --bind-to none --output-filename logs -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29641 \
  ./ap_rlimit.sh $PY ap_train.py --data data --epochs 2 --emb-cache-mb 1024 --pg-timeout 60 > mpirun.console 2>&1
rc mpirun $?
