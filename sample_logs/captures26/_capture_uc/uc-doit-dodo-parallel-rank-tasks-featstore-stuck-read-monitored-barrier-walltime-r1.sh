#!/bin/bash
# doit (pydoit) as the launcher: dodo.py with one sub-task per env:// rank (train:rank0..2), run in parallel worker
# processes with `doit -n 3` at verbosity 2 (task output streamed), console in doit.log. Ranks read their feature
# shard from the node-local cache cache/shard-<R>.npy and fall back to the feature-store gateway (uc_featstore.py,
# its log featstore.log) on a miss. The nightly stage-in left shard 1 out of the cache; the gateway's backing volume
# does not answer. Rank 0 checks with dist.monitored_barrier(30 s) that every rank has staged its data.
# The job has a 150 s wall-clock limit (timeout -s TERM).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY uc_make_npy_shards.py volume > /dev/null
mkdir -p cache; cp volume/shard-0.npy volume/shard-2.npy cache/
$PY uc_featstore.py 8765 /mnt/featvol > featstore.log 2>&1 &
FS=$!
sleep 2
timeout -s TERM 150 nice $V/doit -n 3 train > doit.log 2>&1
rc doit $?
sleep 3
ps -eo pid,ppid,stat,args | grep -v grep | grep uc_train > leftover-ps.txt
kill $FS
