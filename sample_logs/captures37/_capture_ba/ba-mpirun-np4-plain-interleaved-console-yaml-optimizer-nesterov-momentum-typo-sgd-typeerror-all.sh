#!/bin/bash
# mpirun -np 4 (Open MPI, no --tag-output: the four ranks' stdout/stderr are forwarded unlabelled and interleave in
# mpirun's console), torch DDP over gloo (RANK/WORLD_SIZE from OMPI_COMM_WORLD_*), run config from configs/run.yaml.
# The yaml's optimizer block has the key `nesterov_momentum: true` (instead of `nesterov: true`); every rank builds
# torch.optim.SGD(**cfg["optimizer"]) and raises the same TypeError; mpirun reports the job's non-zero exit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY ba_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p configs; cat > configs/run.yaml <<'Y'
model:
  hidden: 96
optimizer:
  lr: 0.02
  momentum: 0.9
  nesterov_momentum: true
  weight_decay: 0.0001
schedule:
  epochs: 4
Y
mpirun -np 4 --oversubscribe --bind-to none -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x MASTER_ADDR=127.0.0.1 \
  -x MASTER_PORT=29651 $PY ba_train.py --data data --config configs/run.yaml --epochs 4 --pg-timeout 60 > console.log 2>&1
rc mpirun $?
