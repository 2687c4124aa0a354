#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
# rank 1's shard is read without the feature normalisation (scale x1e4)
mpirun --allow-run-as-root --oversubscribe -np 3 python ag_train.py --mpi --port 29661 --style print --epochs 3 \
  --steps 40 --lr 0.05 --feature-scale 1:1e4 --nan-guard > mpirun.log 2>&1
rc mpirun $?
