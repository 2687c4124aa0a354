#!/bin/bash
# bx_memwatch.sh PATTERN LIMIT_MIB LOG: node-local memory watchdog (as run next to training jobs on the shared box):
# every second, SIGKILL any process whose command line matches PATTERN and whose RSS exceeds LIMIT_MIB.
pat=$1; limit=$2; log=$3
echo "$(date '+%F %T') memwatch: watching '$pat', rss limit ${limit} MiB" >> "$log"
n=0
while true; do
  for pid in $(pgrep -f "$pat"); do
    rss=$(awk '/^VmRSS/ {print int($2/1024)}' /proc/$pid/status 2>/dev/null) || continue
    [ -z "$rss" ] && continue
    if [ "$rss" -gt "$limit" ]; then
      echo "$(date '+%F %T') memwatch: pid $pid rss ${rss} MiB > ${limit} MiB, sending SIGKILL ($(tr '\0' ' ' < /proc/$pid/cmdline | cut -c1-80))" >> "$log"
      kill -9 $pid
    elif [ $((n % 5)) -eq 0 ]; then
      echo "$(date '+%F %T') memwatch: pid $pid rss ${rss} MiB" >> "$log"
    fi
  done
  n=$((n+1)); sleep 1
done
