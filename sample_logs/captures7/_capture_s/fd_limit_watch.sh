#!/bin/bash
# fd_limit_watch.sh LOCAL_RANK NOFILE: as soon as the Lightning process of that LOCAL_RANK exists (its environ
# holds LOCAL_RANK=<n> and its cmdline runs s_pl.py), lower its open-files limit with prlimit (what a
# per-task limit of the scheduler / container runtime does to one rank's process); gives up after 120 s.
want=$1; lim=$2
for i in $(seq 1200); do
  for pid in $(pgrep -f "s_pl.py"); do
    if tr '\0' '\n' < /proc/$pid/environ 2>/dev/null | grep -qx "LOCAL_RANK=$want"; then
      prlimit --pid "$pid" --nofile=$lim:$lim && echo "pid $pid: nofile $lim" && exit 0
    fi
  done
  sleep 0.1
done
exit 1
