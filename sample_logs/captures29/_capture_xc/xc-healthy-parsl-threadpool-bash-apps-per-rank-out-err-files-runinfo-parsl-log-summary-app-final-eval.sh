#!/bin/bash
# Parsl as the workflow runner (xc_parsl_run.py): a ThreadPoolExecutor with 3 threads, one bash_app per env:// rank
# (stdout -> logs/train-r<R>.out, stderr -> logs/train-r<R>.err), Parsl's DataFlowKernel log runinfo/000/parsl.log,
# and a summary bash_app that greps the rank logs (logs/summary.out). A normal run with a final eval (FutureWarning,
# c10d hostname warnings on stderr). Healthy.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
timeout -s TERM 200 nice $PY xc_parsl_run.py 3 29930 -- --epochs 3 --final-eval --warn --pg-timeout 60 \
  --fmt '%(asctime)s | %(levelname)-8s | rank {rank} | %(message)s' > driver.console 2>&1
rc driver $?
