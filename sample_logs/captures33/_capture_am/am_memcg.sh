#!/bin/bash
# per-rank memory cap (like a scheduler's --mem-per-task): each MPI rank runs in its own memory cgroup
cg=/sys/fs/cgroup/memory/amjob_rank${OMPI_COMM_WORLD_RANK}
mkdir -p "$cg" && echo "$MEM_PER_RANK" > "$cg/memory.limit_in_bytes" && echo $$ > "$cg/cgroup.procs"
exec "$@"
