#!/bin/bash
# yc_cronolog_launch.sh NPROC PORT -- CMD...: start NPROC env:// ranks, each rank's stdout+stderr piped into cronolog
# (one file per rank and minute under logs/<date>/, a `current` symlink per rank); launcher lines to stdout.
n=$1; port=$2; shift 3
echo "$(date '+%F %T') launcher[$$]: starting $n ranks (master 127.0.0.1:$port) under $(ps -o comm= -p $PPID) (pid $PPID)"
for r in $(seq 0 $((n - 1))); do
  ( RANK=$r WORLD_SIZE=$n LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port exec "$@" 2>&1 ) \
    | cronolog --symlink=logs/rank$r.current "logs/%Y-%m-%d/rank$r-%H%M.log" &
  echo "$(date '+%F %T') launcher[$$]: rank $r started (pipeline pid $!)"
done
wait
echo "$(date '+%F %T') launcher[$$]: all ranks exited"
