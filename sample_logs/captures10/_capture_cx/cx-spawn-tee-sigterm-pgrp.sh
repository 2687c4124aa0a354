#!/bin/bash
# mp.spawn x3 (python cx_train.py --spawn 3) in its own session/process group (setsid), stdout+stderr piped
# through 'tee console.log' (tee outside the job's group); workers log in the bracket format on stdout and
# install a SIGTERM handler that logs the signal and exits 143.
# Planted: healthy 200-step run; after 12 s the 'scheduler' sends SIGTERM to the job's process group.
. "$(dirname "$(readlink -f "$0")")/common.sh"
setsid nice $PY cx_train.py --spawn 3 --log-style bracket --steps 200 --sleep 0.2 --pg-timeout 30 \
  --fault sigterm_handler 2>&1 | tee console.log > /dev/null &
sleep 12
PG=$(ps -eo pgid,args | awk '/cx_train.py --spawn 3/ && !/awk/ {print $1; exit}')
echo "scheduler: SIGTERM to process group $PG"; kill -TERM -- -$PG
wait; rc wrapper $?
