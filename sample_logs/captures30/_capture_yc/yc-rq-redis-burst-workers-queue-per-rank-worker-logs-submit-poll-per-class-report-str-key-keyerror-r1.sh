#!/bin/bash
# RQ (python-rq 3.0) on a redis-server started inside the job's namespaces: one burst worker per rank, each listening
# on its own queue rank<R> (`rq worker --burst --name w<R> rank<R>`, output in workers/w<R>.log), the ranks'
# train_rank jobs enqueued and polled by yc_rq_submit.py (submit.log). Rank 1 is the run's eval rank and writes a
# per-class accuracy report after every epoch; the report code keys its table by str(class) but looks it up with
# the integer label (KeyError). Ranks 0/2 wait for it in the end-of-epoch barrier.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p workers
echo '["cat", "dog", "truck", "ship"]' > classes.json
redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --logfile "$J/redis.log" --daemonize yes --pidfile "$J/redis.pid"
sleep 1
timeout -s TERM 300 nice $PY yc_rq_submit.py 3 29941 --epochs 2 --pg-timeout 60 --class-report-rank 1 \
  --class-names classes.json --fmt '%(asctime)s %(levelname)-7s [rank {rank}] %(name)s: %(message)s' > submit.log 2>&1 &
SUB=$!
sleep 3
for r in 0 1 2; do
  timeout -s TERM 300 nice rq worker --burst --url redis://127.0.0.1:6379 --name w$r rank$r > workers/w$r.log 2>&1 &
done
wait $SUB; rc submit $?
wait
redis-cli -p 6379 shutdown nosave 2>/dev/null
