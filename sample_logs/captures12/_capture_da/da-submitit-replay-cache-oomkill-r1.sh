#!/bin/bash
# submitit LocalExecutor (tasks_per_node=2): driver output in console.log, each task's stdout/stderr in
# sublogs/<jobid>/<jobid>_<task>_log.{out,err}. The whole job runs in a memory cgroup (v1) limited to 1100 MiB,
# no swap: the kernel OOM killer picks the biggest process.
# Planted: rank 1 keeps every decoded batch (40 MB) in a 'replay cache' and logs its RSS each step.
. "$(dirname "$(readlink -f "$0")")/common.sh"
CG=/sys/fs/cgroup/memory/$NAME; rmdir $CG 2>/dev/null; mkdir $CG; echo 1100M > $CG/memory.limit_in_bytes
echo $$ > $CG/cgroup.procs
timeout -s TERM 90 nice $PY da_submit.py --tasks 2 --timeout-min 5 -- --steps 40 --pg-timeout 30 --fault leak --fault-rank 1 > console.log 2>&1
rc launcher $?
echo $$ > /sys/fs/cgroup/memory/cgroup.procs; cat $CG/memory.failcnt $CG/memory.oom_control > cgroup_after.txt; rmdir $CG
# the kernel's report of the kill: the last contiguous 'invoked oom-killer' .. 'Killed process' block of dmesg
dmesg | awk '/invoked oom-killer/{b=""} {b=b $0 "\n"} /Killed process/{k=b} END{printf "%s", k}' > dmesg.txt
