#!/bin/bash
# mpirun -np 3 --tag-output (Open MPI 4.1.4): every line `[1,R]<stdout>:` / `[1,R]<stderr>:`; the trainer print()s
# `[r<R>] msg`; ga_train.py maps OMPI_COMM_WORLD_* to RANK/WORLD_SIZE (env:// rendezvous). console.log = mpirun's output.
# Planted: DDP without find_unused_parameters; the model's aux head is used only when the batch carries aux labels;
# rank 1's batch at step 5 carries none, so the aux head gets no gradient on rank 1 in that step.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice /usr/bin/mpirun --allow-run-as-root --oversubscribe --tag-output -np 3 \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29781 -x PYTHONUNBUFFERED=1 -x OMP_NUM_THREADS=1 \
  $PY ga_train.py --steps 10 --pg-timeout 25 --log-style print --fault unused_aux --fault-rank 1 --fault-step 5 \
  > console.log 2>&1
rc launcher $?
