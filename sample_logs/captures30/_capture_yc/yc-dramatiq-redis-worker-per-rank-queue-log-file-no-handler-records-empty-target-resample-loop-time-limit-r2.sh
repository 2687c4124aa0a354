#!/bin/bash
# dramatiq 2.2 on a redis-server inside the job's namespaces: one `dramatiq yc_dq_tasks --processes 1 --threads 1
# --queues rank<R> --log-file logs/dramatiq-rank<R>.log` worker per rank, the ranks' records going through dramatiq's
# own log handler (the trainer adds none), actors with max_retries=0 and time_limit=120 s, the Results middleware on
# redis, messages sent and awaited by yc_dq_submit.py (submit.log). Rank 2 hits a batch whose samples all lack a
# target span at step 23 and re-samples in a loop that never ends (it looks for a label > 3 in a 4-class set); its
# peers time out in the next collective (process-group timeout 30 s); dramatiq's time limit ends rank 2's actor.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --logfile "$J/redis.log" --daemonize yes --pidfile "$J/redis.pid"
sleep 1
for r in 0 1 2; do
  nice dramatiq yc_dq_tasks --processes 1 --threads 1 --queues rank$r --log-file logs/dramatiq-rank$r.log &
  eval W$r=$!
done
sleep 4
timeout -s TERM 280 nice $PY yc_dq_submit.py 3 29942 --epochs 3 --pg-timeout 30 --resample-rank 2 --resample-step 23 \
  > submit.log 2>&1
rc submit $?
kill -TERM $W0 $W1 $W2; wait
redis-cli -p 6379 shutdown nosave 2>/dev/null
