#!/bin/bash
# APScheduler 3.11 as the job runner (yc_aps_run.py): a BlockingScheduler with a ThreadPoolExecutor(3) and one
# date-triggered job per rank; each job runs the rank with subprocess (env:// variables) writing ranks/rank<R>.log; an
# EVENT_JOB_EXECUTED / EVENT_JOB_ERROR listener shuts the scheduler down when all rank jobs are done. The scheduler's
# and the apscheduler library's records go to scheduler.log. A healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ranks
timeout -s TERM 300 nice $PY yc_aps_run.py 3 29951 -- --epochs 3 --final-eval --warn --pg-timeout 60 \
  --fmt '%(asctime)s.%(msecs)03d %(levelname).1s rank{rank} %(module)s:%(lineno)d] %(message)s' > aps.console 2>&1
rc scheduler $?
