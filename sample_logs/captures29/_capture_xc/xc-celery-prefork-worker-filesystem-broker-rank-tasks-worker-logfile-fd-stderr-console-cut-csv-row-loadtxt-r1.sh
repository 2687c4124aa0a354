#!/bin/bash
# Celery 5 as the job runner: one worker (`--pool prefork --concurrency 3 -O fair --max-tasks-per-child 1`) on
# kombu's filesystem broker; the submit script sends one xcjobs.train_rank task per rank and waits for the results.
# Layout: the worker's log file (celery's worker format; the trainer's records propagate into it, Python-level
# stdout/stderr redirected as WARNING records), the worker's fd-level stderr (C++ c10d/gloo messages) in
# worker.console, and the submitter's submit.log. The export step cut rank 1's shard short at line 914 (a partial
# row: the writer was stopped mid-line and the next part appended); numpy.loadtxt refuses it on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p queue/out queue/processed results data
$PY xc_make_data.py data 3 1600 --bad-row '1:914:0.318211,-1.027345,0.552' 
timeout -s TERM 150 nice $V/celery -A xc_celery_app worker --pool prefork --concurrency 3 -O fair \
  --max-tasks-per-child 1 --loglevel INFO --logfile worker.log --hostname xcw1@%h > worker.console 2>&1 & WP=$!
sleep 6
timeout -s TERM 120 $PY xc_celery_submit.py 3 29923 90 -- --no-handler --data 'data/shard-{rank}.csv' --epochs 2 \
  --pg-timeout 30 > submit.log 2>&1
rc submit $?
kill -TERM $WP; wait $WP; rc worker $?
