#!/bin/bash
# bash loop: one background python per rank with env:// rendezvous from a per-rank env file
# (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), `nohup ... > out.$RANK 2>&1 &`, then `wait`.
# Planted: rank 1's env file still names the old head node MASTER_ADDR=trainer-head-0.cluster.internal (no such
# host here; the network namespace has loopback only); 20 s process-group/store timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env
printf 'RANK=0\nWORLD_SIZE=2\nLOCAL_RANK=0\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29982\n' > env/rank0.env
printf 'RANK=1\nWORLD_SIZE=2\nLOCAL_RANK=0\nMASTER_ADDR=trainer-head-0.cluster.internal\nMASTER_PORT=29982\n' > env/rank1.env
for R in 0 1; do
  ( set -a; . env/rank$R.env; set +a
    exec nohup timeout -s TERM 45 nice $PY cz_train.py --log-style syslog --steps 10 --pg-timeout 20 > out.$R 2>&1 ) &
  PIDS[$R]=$!
done
wait ${PIDS[0]}; rc rank0 $?
wait ${PIDS[1]}; rc rank1 $?
