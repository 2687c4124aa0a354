#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --no-python ./rank_env.sh python mc_dl_train.py ...: torchrun starts the
# site's per-rank wrapper script (rank_env.sh) instead of python; the wrapper puts its rank into a memory cgroup
# (cgroup v1, /sys/fs/cgroup/memory/mcjob-<pid>/rank<LOCAL_RANK>) sized from mem_limits.conf, logs one line, and execs
# the trainer. DataLoader with 2 persistent workers per rank, each keeping an in-worker decode cache.
# console.log = torchrun + wrappers + workers (LOGLEVEL=INFO).
# Planted: mem_limits.conf still holds the 400M limit for local rank 1 left from a smoke test (local rank 0: 4G);
# rank 1's DataLoader workers grow their decode caches past it and the kernel OOM killer (memory cgroup) kills one.
. "$(dirname "$(readlink -f "$0")")/common.sh"
CG=/sys/fs/cgroup/memory/mcjob-$$
mkdir -p $CG
printf '# local_rank  memory.limit\n0 4G\n1 400M\n' > mem_limits.conf
cat > rank_env.sh <<EOW
#!/bin/bash
# rank_env.sh: per-rank wrapper (memory cgroup from mem_limits.conf), then exec the command
lim=\$(awk -v r=\$LOCAL_RANK '\$1==r {print \$2}' mem_limits.conf)
cg=$CG/rank\$LOCAL_RANK
mkdir -p \$cg && echo \$lim > \$cg/memory.limit_in_bytes && echo 0 > \$cg/memory.swappiness && echo \$\$ > \$cg/cgroup.procs
echo "rank_env.sh: RANK=\$RANK LOCAL_RANK=\$LOCAL_RANK host \$(hostname) pid \$\$ memory cgroup \$cg limit \$lim (\$(cat \$cg/memory.limit_in_bytes) bytes)"
exec "\$@"
EOW
chmod +x rank_env.sh
export LOGLEVEL=INFO
timeout -s TERM 170 nice $TR --standalone --nproc-per-node 2 --no-python ./rank_env.sh $PY mc_dl_train.py \
  --records 1200 --cache-items 2000 --workers 2 --epochs 2 > console.log 2>&1
rc torchrun $?
cat $CG/rank1/memory.failcnt $CG/rank1/memory.max_usage_in_bytes > cgroup_rank1.txt 2>/dev/null
for d in $CG/rank0 $CG/rank1 $CG; do rmdir $d 2>/dev/null; done
