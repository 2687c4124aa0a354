#!/bin/bash
# wc_daemon_launch.sh NPROC PORT -- CMD...: site launcher on libslack `daemon`: each env:// rank is a named daemon
# client (--name=rank<R>, pid files under run/, --output=logs/rank<R>.log for the client's stdout+stderr,
# --errlog=logs/daemon.err for daemon's own messages), kept in the foreground (-f) so that the launcher can wait for
# it; daemon's stderr and the launcher's lines (`YYYY-mm-dd HH:MM:SS launch: ...`) go to the launcher's stdout.
NPROC=$1 PORT=$2; shift 3
say() { echo "$(date '+%F %T') launch: $*"; }
declare -A PID
for ((r = 0; r < NPROC; r++)); do
  daemon -f --name=rank$r --pidfiles="$PWD/run" --chdir="$PWD" --output="$PWD/logs/rank$r.log" \
    --errlog="$PWD/logs/daemon.err" --env=RANK=$r --env=LOCAL_RANK=$r --env=WORLD_SIZE=$NPROC \
    --env=MASTER_ADDR=127.0.0.1 --env=MASTER_PORT=$PORT --env=PYTHONUNBUFFERED=1 --env=OMP_NUM_THREADS=1 -- "$@" 2>&1 &
  PID[$r]=$!; say "rank $r: daemon --name=rank$r pid ${PID[$r]}"
done
st=0
for ((r = 0; r < NPROC; r++)); do
  wait ${PID[$r]}; s=$?; say "rank $r: daemon exited $s"; ((s && !st)) && st=$s
done
say "all ranks ended, status $st"; exit $st
