#!/bin/sh
# uc_launch_debug.sh (POSIX sh, run by dash): the site's "debug launch" of an env:// job - every rank runs under gdb
# in batch mode, so that a native crash leaves a backtrace of all threads in the rank's file gdb/rank<R>.txt.
# usage: uc_launch_debug.sh NPROC PORT -- cmd [arg ...]
N=$1; PORT=$2; shift 3
mkdir -p gdb
echo "launch_debug: $N ranks under gdb, MASTER_PORT=$PORT: $*"
i=0
while [ "$i" -lt "$N" ]; do
  RANK=$i LOCAL_RANK=$i WORLD_SIZE=$N MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT \
    gdb -q -nx -batch -ex 'set pagination off' -ex 'handle SIGPIPE nostop noprint pass' \
        -ex run -ex 'thread apply all bt 25' --args "$@" > "gdb/rank$i.txt" 2>&1 &
  echo "launch_debug: rank $i -> gdb pid $! (gdb/rank$i.txt)"
  i=$((i + 1))
done
wait
echo "launch_debug: all gdb sessions ended"
