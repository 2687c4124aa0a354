#!/bin/bash
# Bash launcher whose per-rank launch steps are serialized by `flock -x` on launch.lock (one rank at a time sources its
# env file env/rank<R>.env, prints its rendezvous settings and stages its shard, then releases the lock and execs the
# trainer); launch lines append to launch.log, each rank's output to out/rank<R>.log. env/rank2.env carries a
# MASTER_PORT with two digits swapped (29852 instead of 29582). Process-group timeout 30 s (so the store waits end).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env out
for r in 0 1 2; do
  p=29582; [ $r = 2 ] && p=29852
  printf 'RANK=%s\nLOCAL_RANK=%s\nWORLD_SIZE=3\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=%s\n' $r $r $p > env/rank$r.env
done
for r in 0 1 2; do
  (
    exec 9>launch.lock
    flock -x 9
    echo "$(date '+%F %T') rank $r: launch lock acquired (pid $BASHPID)" >> launch.log
    set -a; . env/rank$r.env; set +a
    echo "$(date '+%F %T') rank $r: RANK=$RANK WORLD_SIZE=$WORLD_SIZE MASTER_ADDR=$MASTER_ADDR MASTER_PORT=$MASTER_PORT" >> launch.log
    sleep 1
    echo "$(date '+%F %T') rank $r: shard staged, releasing launch lock" >> launch.log
    flock -u 9; exec 9>&-
    exec timeout -s TERM 120 nice $PY rc_train.py --rows 800 --pg-timeout 30 > out/rank$r.log 2>&1
  ) &
done
wait -n; st=$?; echo "$(date '+%F %T') launcher: first rank exited with status $st" >> launch.log
wait -n; st=$?; echo "$(date '+%F %T') launcher: next rank exited with status $st" >> launch.log
wait -n; st=$?; echo "$(date '+%F %T') launcher: last rank exited with status $st" >> launch.log
rc launcher $st
