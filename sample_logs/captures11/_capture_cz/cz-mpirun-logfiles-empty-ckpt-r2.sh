#!/bin/bash
# Open MPI mpirun -np 3 (--bind-to none --oversubscribe: 2 cores), console.log = mpirun's own output + what the processes write to
# stderr; each rank's Python logging goes to logs/train.{rank}.log only.
# Planted: resume from per-rank checkpoints ckpt/rank{0,1,2}.pt written by a previous run; rank 2's file is
# empty (0 bytes, its writer was killed mid-save).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY prep_ckpt.py 3 4
: > ckpt/rank2.pt
ls -l ckpt > ckpt_listing.txt
timeout -s TERM 60 nice mpirun --allow-run-as-root --bind-to none --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29987 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY cz_train.py --log-style pipe --log-file 'logs/train.{rank}.log' \
  --steps 10 --pg-timeout 20 --fault ckpt_resume > console.log 2>&1
rc mpirun $?
