#!/bin/bash
# wc_memcg_exec.sh LIMIT TAG -- CMD...: site per-process memory cap (cgroup v1 memory controller). Puts itself in
# /sys/fs/cgroup/memory/wcjob/<TAG> with memory.limit_in_bytes=LIMIT, runs CMD, and on exit reports the cgroup's
# OOM-kill count and peak usage on stderr (`memcap[TAG]: ...`).
LIMIT=$1 TAG=$2; shift 3
CG=/sys/fs/cgroup/memory/wcjob/$TAG
mkdir -p "$CG" && echo "$LIMIT" > "$CG/memory.limit_in_bytes" && echo $$ > "$CG/cgroup.procs"
"$@" & child=$!
trap 'kill -TERM $child 2>/dev/null' TERM INT
wait $child; st=$?; while kill -0 $child 2>/dev/null; do wait $child; st=$?; done
ook=$(sed -n 's/^oom_kill //p' "$CG/memory.oom_control")
peak=$(($(cat "$CG/memory.max_usage_in_bytes") / 1048576))
if [ "${ook:-0}" -gt 0 ]; then
  echo "memcap[$TAG]: pid $child killed by the kernel OOM killer (oom_kill=$ook, limit $LIMIT, peak ${peak} MiB), status $st" >&2
else
  echo "memcap[$TAG]: pid $child exited status $st (peak ${peak} MiB of $LIMIT)" >&2
fi
exit $st
