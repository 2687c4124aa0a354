#!/bin/bash
# node-local stale-job reaper (runs from the node's cron-like loop): any launcher registered in the node's pid dir
# whose job id is not in the scheduler's active list gets SIGTERM.
PIDDIR=$1; ACTIVE=$2; LOG=$3
while sleep 5; do
  for f in "$PIDDIR"/*.pid; do
    [ -e "$f" ] || continue
    job=$(basename "$f" .pid); pid=$(cat "$f")
    kill -0 "$pid" 2>/dev/null || { rm -f "$f"; continue; }
    if ! grep -qx "$job" "$ACTIVE"; then
      echo "$(date '+%Y-%m-%d %H:%M:%S') $(hostname) reaper: job $job (pid $pid) not in active job list, sending SIGTERM" >> "$LOG"
      kill -TERM "$pid"; rm -f "$f"
    fi
  done
done
