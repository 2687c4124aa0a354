#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (MULTI_CPU, gloo), one console. The whole job runs in a memory cgroup
# capped at 1400 MiB (as a container limit). Each rank materialises 160 augmented copies of its shard in memory before
# training. Rank 1's shard was re-exported without de-duplication (40000 rows instead of 2000): its cache is ~20x larger,
# the cgroup hits its limit and the kernel OOM killer SIGKILLs rank 1 (the largest process); the agent stops the others.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 3 --rows 2000 --features 32 > prep.log
$PY - <<'PY'
import numpy as np
d = np.load("data/shard_01.npz"); np.savez("data/shard_01.npz", x=np.tile(d["x"], (20, 1)), y=np.tile(d["y"], 20))
PY
CG=/sys/fs/cgroup/memory/aw_job_$$; mkdir -p $CG; echo $((1400 * 1024 * 1024)) > $CG/memory.limit_in_bytes
echo $$ > $CG/tasks
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29771 aw_acc.py --data data --epochs 3 --aug-cache-copies 160 > console.log 2>&1
rc accelerate $?
echo $$ > /sys/fs/cgroup/memory/tasks; cat $CG/memory.failcnt > memcg_failcnt; rmdir $CG
