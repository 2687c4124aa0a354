#!/bin/bash
# site stall watchdog: every 2 s, for each training process (qc_train.py), read its RANK from /proc/<pid>/environ and
# the mtime of its metrics file metrics/rank<R>.csv; a rank whose metrics have not advanced for STALL_S seconds is
# declared stuck and SIGKILLed.
STALL_S=${STALL_S:-15}
echo "$(date '+%F %T') stallwatch: started, stall limit ${STALL_S}s, watching metrics/rank*.csv"
while sleep 2; do
  now=$(date +%s); found=0
  for pid in $(pgrep -f 'qc_train.py'); do
    r=$(tr '\0' '\n' < /proc/$pid/environ 2>/dev/null | sed -n 's/^RANK=//p'); [ -z "$r" ] && continue
    found=1; f=metrics/rank$r.csv; [ -f "$f" ] || continue
    age=$(( now - $(stat -c %Y "$f") ))
    if [ $age -ge $STALL_S ]; then
      echo "$(date '+%F %T') stallwatch: rank $r (pid $pid) no metrics for ${age}s ($f) -> SIGKILL"
      kill -9 $pid; echo "$(date '+%F %T') stallwatch: killed pid $pid"; sleep 5
    fi
  done
  [ $found = 0 ] && [ -f .started ] && { echo "$(date '+%F %T') stallwatch: no training processes left, exiting"; exit 0; }
  [ $found = 1 ] && touch .started
done
