#!/bin/bash
# torch.multiprocessing.spawn, 8 ranks, one log file per rank (logs/rank<N>.log via logging.FileHandler) plus the
# spawner's console. Healthy: 3 epochs, small DDP buckets (bucket_cap_mb=1), a warning about the per-rank batch,
# final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
$PY aj_spawn.py 8 -- --hidden 384 --bucket-cap-mb 1 --epochs 3 --rows 512 --bs 32 --log-every 8 --warn --final-eval \
  --logfile 'logs/rank{rank}.log' --fmt '[%(asctime)s][%(name)s][%(levelname)s][rank {rank}/{world}] %(message)s' \
  > spawn.console 2>&1
rc spawn $?
