#!/bin/bash
# submitit LocalExecutor (tasks_per_node=2, timeout_min=1): driver output in console.log, each task's stdout/stderr in
# sublogs/<jobid>/<jobid>_<task>_log.{out,err}.
# Planted: nothing wrong with the training (300 steps x 0.3 s, about 95 s) -- the job's time limit (1 minute) is
# shorter than the run; submitit's local 'scheduler' ends the tasks when the limit is reached.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 100 nice $PY da_submit.py --tasks 2 --timeout-min 1 --port 29613 -- --steps 300 --pg-timeout 30 > console.log 2>&1
rc launcher $?
