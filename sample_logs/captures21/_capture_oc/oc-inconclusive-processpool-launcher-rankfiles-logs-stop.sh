#!/bin/bash
# A concurrent.futures.ProcessPoolExecutor launcher (spawn context, one rank per pool worker, tcp:// init, process
# group timeout 30 min); each rank logs with a logging.FileHandler to logs/rank<R>.log, the launcher to launcher.log; the
# pool's stdout/stderr (c10d warnings) go to console.log.
# Planted: rank 1's 5th shard file has a ragged row count (1000 rows, not a multiple of the batch size 64); the
# prefetch thread's ragged-shard bookkeeping takes the prefetcher's non-reentrant lock a second time and deadlocks,
# so rank 1's main thread waits on an empty queue forever and ranks 0/2 wait in DDP's all_reduce (30 min timeout).
# Nothing is printed about it. The collector ended the job 75 s after the start (SIGKILL to the launcher's
# process group) and copied the logs as they were.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export GLOO_SOCKET_IFNAME=lo
$PY oc_make_pool_shards.py data 3 6 1024 1:4:1000
set -m
nice $PY oc_pool_launch.py 3 29891 > console.log 2>&1 & L=$!
set +m
sleep 75
echo "$(date +%T) killing process group $L"; ps -o pid,stat,etime,cmd --ppid $L
kill -KILL -- -$L; wait $L; rc launcher $?
