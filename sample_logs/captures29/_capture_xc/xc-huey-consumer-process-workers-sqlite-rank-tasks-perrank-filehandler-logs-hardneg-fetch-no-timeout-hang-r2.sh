#!/bin/bash
# huey (SqliteHuey) as the job runner: `huey_consumer xc_huey_app.huey -w 3 -k process` (three worker processes),
# one train_rank task per rank enqueued by xc_huey_enqueue.py, which then polls the result store for 75 s. The
# ranks log only to logs/rank<R>.log (FileHandler); the consumer's own log is consumer.log (-l), its fd-level
# stderr consumer.console. Rank 2 is the rank that pulls the hard-negative list from the mining service at step 20
# (urllib, no timeout). The mining service accepts the connection but its backend never answers; rank 2 blocks and
# ranks 0/1 time out in the next all_reduce (process-group timeout 20 s). The collector stops the consumer (SIGTERM)
# after the enqueue script gives up.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
$PY xc_stall_server.py 8808 mining-svc.log & SP=$!
timeout -s TERM 150 nice $V/huey_consumer xc_huey_app.huey -w 3 -k process -l consumer.log > consumer.console 2>&1 & CP=$!
sleep 3
timeout -s TERM 120 $PY xc_huey_enqueue.py 3 29924 75 -- --no-stdout --logfile 'logs/rank{rank}.log' --epochs 2 \
  --pg-timeout 20 --hardneg-url 'http://127.0.0.1:8808/hardneg?shard=2&k=256' --hardneg-rank 2 --hardneg-step 20 \
  --fmt '%(asctime)s %(levelname)s %(name)s[%(process)d] rank{rank}: %(message)s' > enqueue.log 2>&1
rc enqueue $?
kill -TERM $CP; wait $CP; rc consumer $?
kill $SP
