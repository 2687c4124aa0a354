#!/bin/bash
# python by_ray.py --mode actors --workers 3 --aug-copies 40: a local Ray cluster (ray.init) with three ray.remote
# RankWorker actors that form a gloo process group and train a DDP MLP, driven epoch by epoch by the driver; one
# console. The whole job runs in a memory cgroup limited to 2500 MiB (the job's memory allocation). Rank 2's shard
# was re-exported with 200 000 rows instead of 1024 (by_prep.py --rows-shard 2:200000); with the 40-copy augmentation
# cache its actor grows past the limit while building it and is killed by the kernel OOM killer (SIGKILL).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 3 --rows 1024 --rows-shard 2:200000 > prep.log
CG=/sys/fs/cgroup/memory/by_job_$$; mkdir -p $CG; echo 2500M > $CG/memory.limit_in_bytes; echo $$ > $CG/cgroup.procs
export RAY_TMPDIR=/tmp/by_ray_$$
$PY by_ray.py --mode actors --workers 3 --epochs 4 --aug-copies 40 > console.log 2>&1
rc python $?
cat $CG/memory.failcnt > memcg_failcnt.txt
# the node's kernel log of the OOM event (dmesg -T, from the oom-killer invocation to the kill)
dmesg -T | awk '/invoked oom-killer/{buf=""; on=1} on{buf=buf $0 "\n"} /Killed process/{if(on) last=buf; on=0} END{printf "%s", last}' > kern_oom.log; echo $$ > /sys/fs/cgroup/memory/cgroup.procs; sleep 1; rmdir $CG
