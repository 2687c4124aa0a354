#!/bin/bash
# python -m torch.distributed.run --nnodes 1:2 (elastic: min 1, max 2 agents) --nproc-per-node 2, c10d rendezvous at
# 127.0.0.1:29760 (last_call_timeout=5: only one agent joins, the job starts with 1 node). LOGLEVEL=INFO for the
# agent. Workers: asctime logging on stderr + RotatingFileHandler logs/rank<R>.log. console.log = agent + workers.
# Planted: the run config sets --grad-accum 32 (copied from the 16-node config) while this job's DistributedSampler
# gives each rank 16 batches per epoch: the schedule length epochs*16//32 = 0 optimizer steps, warmup int(0*0.1) = 0,
# and LambdaLR evaluates the decay branch (step - 0) / (0 - 0) when it is constructed.
. "$(dirname "$(readlink -f "$0")")/common.sh"
LOGLEVEL=INFO timeout -s TERM 120 nice $PY -m torch.distributed.run --nnodes 1:2 --nproc-per-node 2 \
  --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29760 --rdzv-id ia-elastic --rdzv-conf last_call_timeout=5 \
  ia_train.py --steps 12 --pg-timeout 30 --epochs 1 --batch 16 --samples 512 --grad-accum 32 --warmup-ratio 0.1 \
  --log-file 'logs/rank{rank}.log' > console.log 2>&1
rc launcher $?
