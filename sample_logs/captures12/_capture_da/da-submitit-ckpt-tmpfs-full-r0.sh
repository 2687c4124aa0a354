#!/bin/bash
# submitit LocalExecutor (tasks_per_node=3): driver output in console.log, each task's stdout/stderr in
# sublogs/<jobid>/<jobid>_<task>_log.{out,err}. Model width 50000 (1.05 M params, ~4.2 MB per checkpoint); rank 0
# saves a checkpoint every 3 steps into ckpt/ (keeps all), the others wait at a barrier.
# Planted: ckpt/ is a 10 MiB tmpfs (a small scratch volume): the third save does not fit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt; mount -t tmpfs -o size=10m tmpfs ckpt
timeout -s TERM 90 nice $PY da_submit.py --tasks 3 --timeout-min 5 --port 29614 -- --steps 15 --pg-timeout 30 \
  --hidden 50000 --lr 0.002 --ckpt-every 3 --ckpt-dir ckpt > console.log 2>&1
rc launcher $?
df -k ckpt > df_ckpt.txt; ls -l ckpt >> df_ckpt.txt
