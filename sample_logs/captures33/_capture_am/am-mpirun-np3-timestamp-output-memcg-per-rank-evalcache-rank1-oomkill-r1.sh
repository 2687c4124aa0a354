#!/bin/bash
# mpirun -np 3 --oversubscribe --timestamp-output, one console. Each rank is put in its own memory cgroup capped at 900M by the
# am_memcg.sh wrapper (per-task memory cap); the per-rank eval feature caches are uneven (rank 1 holds the big
# eval split: 1100 MB) -> the kernel OOM killer SIGKILLs rank 1 while it builds its cache.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
$PY am_prep.py --out data --shards 3 --rows 256 > prep.log
mpirun -np 3 --oversubscribe --timestamp-output --bind-to none -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29533 -x MEM_PER_RANK=900M \
  ./am_memcg.sh $PY am_train.py --data data --epochs 2 --eval-cache-mb 240,1100,240 --pg-timeout 60 > console.log 2>&1
rc mpirun $?
for r in 0 1 2; do rmdir /sys/fs/cgroup/memory/amjob_rank$r 2>/dev/null; done
