#!/bin/bash
# submitit LocalExecutor (one job, tasks_per_node=2, timeout_min=2) driven by kc_submitit.py: each task exports the
# torch.distributed env (TorchDistributedEnvironment) and runs kc_train.py in-process. Logs: submitit's own per-task
# files submitit_logs/<job_id>/<job_id>_<task>_log.out|.err (+ the driver's console.log). asctime logging on stderr.
# Data: per-rank shards shards/part-RRRRR.npz; --nan-guard raises on a non-finite loss before backward.
# Planted: record 123 of rank 1's shard carries feature 3 = inf (a corrupt value from the CSV export); the loss of the
# batch holding it is nan on rank 1 only.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_kc_shards.py shards 2 --bad-value 1:123 > make_shards.out
timeout -s TERM 170 nice $PY kc_submitit.py --shard-dir shards --nan-guard --steps 30 --sleep 0.15 --pg-timeout 30 \
  > console.log 2>&1
rc submitit $?
