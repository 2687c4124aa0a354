#!/bin/bash
# Gearman as the job runner: gearmand (gearman-job-server 1.1, --log-file gearmand.log --verbose INFO) in the job's
# namespaces, one `gearman -w -c 1 -f train_rank<R> -- sh -c '...'` CLI worker per rank (the job's stdout goes back
# to the client, the rank's stderr stays in the worker's stderr file workers/rank<R>.err), one `gearman -f
# train_rank<R> -s` client per rank collecting the job's output in clients/rank<R>.out. The ranks log to stdout.
# Rank 2's shard was re-exported by a spreadsheet with `;` as the field separator.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p workers clients
$PY yc_make_csv.py data 3 1200 --semicolon-rank 2
gearmand --listen 127.0.0.1 --port 4730 --log-file "$J/gearmand.log" --verbose INFO --threads 2 & GD=$!
sleep 2
for r in 0 1 2; do
  gearman -h 127.0.0.1 -p 4730 -w -c 1 -f train_rank$r -- sh -c "MASTER_ADDR=127.0.0.1 MASTER_PORT=29948 nice $PY \
    yc_train.py --rank $r --world 3 --data 'data/part-{rank}.csv' --epochs 2 --pg-timeout 60 \
    --fmt '%(asctime)s %(name)s[%(process)d] %(levelname)s: rank {rank}: %(message)s'; echo exit=\$?" \
    2> workers/rank$r.err &
  eval W$r=$!
done
sleep 2
for r in 0 1 2; do timeout -s TERM 200 gearman -h 127.0.0.1 -p 4730 -f train_rank$r -s > clients/rank$r.out 2>&1 & eval C$r=$!; done
wait $C0; rc client0 $?; wait $C1; rc client1 $?; wait $C2; rc client2 $?
kill $W0 $W1 $W2 $GD 2>/dev/null; wait
