#!/bin/bash
# mpirun -np 6 --tag-output python bx_train.py --log-format logfmt --legacy-clip 1.0: 6 ranks (rank/size from Open
# MPI's env), DDP over gloo, key=value lines on stderr; gradient clipping through the deprecated
# torch.nn.utils.clip_grad_norm (FutureWarning on every rank). Healthy run with a final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 6 --rows 384 > prep.log
mpirun --allow-run-as-root --oversubscribe -np 6 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29737 \
  -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS $PY bx_train.py --data data --log-format logfmt --epochs 3 \
  --legacy-clip 1.0 --log-every 6 --pg-timeout 60 --eval > console.log 2>&1
rc mpirun $?
