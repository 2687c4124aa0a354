#!/bin/bash
# xc_slurm_down.sh: stop the job's private Slurm cluster (pid files under slurm/), after its logs were flushed.
S=$PWD/slurm
for f in $S/*.pid /run/xc/munge/munged.pid; do
  [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
done
sleep 2
