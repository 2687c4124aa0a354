#!/bin/bash
# MPICH's Hydra process manager as the rank launcher (no MPI in the program): `mpiexec.hydra -launcher fork -n 3
# -prepend-rank` (every output line prefixed `[R] `, one console mpiexec.out); the trainer takes its rank / world
# from Hydra's PMI_RANK / PMI_SIZE and sets up gloo over env:// (MASTER_ADDR / MASTER_PORT through -genv). The
# model applies one weight-tied block twice, each application wrapped in torch.utils.checkpoint(use_reentrant=True).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice mpiexec.hydra -launcher fork -n 3 -prepend-rank -genv MASTER_ADDR 127.0.0.1 \
  -genv MASTER_PORT 29753 -genv PYTHONUNBUFFERED 1 -genv OMP_NUM_THREADS 1 \
  $PY tc_train.py --model tied-ckpt --rows 1600 --epochs 2 --pg-timeout 60 \
  --fmt '%(asctime)s - %(name)s - %(levelname)s - %(message)s' > mpiexec.out 2>&1
rc mpiexec $?
