#!/bin/bash
# node-local memory watchdog (site daemon): every second, any process in this node's UTS namespace whose RSS exceeds
# LIMIT_MB is killed with SIGKILL; one line per action to stdout.
LIMIT_MB=${LIMIT_MB:-1200}
me=$(readlink /proc/self/ns/uts)
echo "$(date '+%F %T') memwatch[$$]: started on $(hostname), limit ${LIMIT_MB} MiB RSS per process, interval 1s"
while :; do
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    [ "$(readlink $d/ns/uts 2>/dev/null)" = "$me" ] || continue
    rss=$(awk '/^VmRSS:/{print int($2/1024)}' $d/status 2>/dev/null)
    [ -n "$rss" ] && [ "$rss" -gt "$LIMIT_MB" ] || continue
    comm=$(cat $d/comm 2>/dev/null)
    echo "$(date '+%F %T') memwatch[$$]: pid $p ($comm) rss ${rss} MiB > limit ${LIMIT_MB} MiB, sending SIGKILL"
    kill -9 $p && echo "$(date '+%F %T') memwatch[$$]: pid $p killed"
  done
  sleep 1
done
