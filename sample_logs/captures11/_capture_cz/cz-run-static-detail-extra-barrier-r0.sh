#!/bin/bash
# python -m torch.distributed.run --rdzv-backend static (single node, explicit endpoint) x2,
# TORCH_DISTRIBUTED_DEBUG=DETAIL; workers log with loguru on stderr (no --tee: unprefixed, console.log).
# Gradients all-reduced by hand (no DDP wrapper: DETAIL + DDP segfaults on this CPU build).
# Planted: rank 0 alone takes the 'wait for async checkpoint writer' branch at step 4 (an extra dist.barrier()).
. "$(dirname "$(readlink -f "$0")")/common.sh"
export TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout -s TERM 60 nice $PY -m torch.distributed.run --rdzv-backend static --rdzv-endpoint 127.0.0.1:29983 \
  --nnodes 1 --node-rank 0 --nproc-per-node 2 cz_train.py --log-style loguru --pg-timeout 20 --steps 8 \
  --manual-sync --fault extra_barrier --fault-rank 0 --fault-step 4 > console.log 2>&1
rc launcher $?
