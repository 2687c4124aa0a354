#!/bin/bash
# A C launcher (yc_launch.c, built with gcc in the job dir: fork + execvp per env:// rank, stdio/rank<R>.txt for each
# rank's raw stdout+stderr, launch.log with `Mmm dd HH:MM:SS.us yc_launch[pid]: ` stamps). The ranks log only through
# logging.handlers.DatagramHandler (pickled LogRecords over UDP) to the job's receiver yc_udp_recv.py, which writes
# records.log (`<ms since receiver start> <addr>/<pid> <logger> <LEVEL> <message>`); tracebacks printed by Python
# itself land in the stdio files. Rank 1's shard ends with a block of rows exported without the scaler (values up to
# ~3e38, inf in float32); the first batch that holds one gives a non-finite loss and the trainer's NaN guard stops
# rank 1; ranks 0/2 lose it in the gradient all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p stdio
gcc -O2 -Wall -o yc_launch yc_launch.c > gcc.console 2>&1
$PY yc_make_csv.py data 3 1200 --huge-rank 1 --huge-row 1197
$PY yc_udp_recv.py 9021 records.log & RECV=$!
sleep 1
timeout -s TERM 200 nice ./yc_launch 3 29949 -- $PY yc_train.py --data 'data/part-{rank}.csv' --epochs 3 --nan-guard \
  --pg-timeout 60 --no-stdout --datagram 127.0.0.1:9021 > launch.console 2>&1
rc launcher $?
sleep 1; kill -TERM $RECV; wait $RECV
