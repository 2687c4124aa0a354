#!/bin/bash
# bi_srunlike.sh -n NTASKS [--label] -- CMD...: a local stand-in for `srun --label` used on the workstation before a
# job goes to the cluster: starts NTASKS copies of CMD with SLURM_PROCID/SLURM_LOCALID/SLURM_NTASKS/SLURM_JOB_ID set,
# merges each task's stdout+stderr into one stream, prefixed "<task>: " with --label, waits, and exits with the
# highest task exit status, killing the remaining tasks once one fails (like srun --kill-on-bad-exit=1).
n=1; label=0
while [ $# -gt 0 ]; do case $1 in -n) n=$2; shift 2;; --label) label=1; shift;; --) shift; break;; *) break;; esac; done
export SLURM_NTASKS=$n SLURM_JOB_ID=${SLURM_JOB_ID:-$$} SLURM_NODELIST=$(hostname) MASTER_ADDR=${MASTER_ADDR:-127.0.0.1} MASTER_PORT=${MASTER_PORT:-29677}
pids=()
for ((t=0; t<n; t++)); do
  if [ $label = 1 ]; then
    ( SLURM_PROCID=$t SLURM_LOCALID=$t exec "$@" 2>&1 | sed -u "s/^/$t: /"; exit ${PIPESTATUS[0]} ) &
  else
    ( SLURM_PROCID=$t SLURM_LOCALID=$t exec "$@" ) &
  fi
  pids+=($!)
done
worst=0; left=$n
while [ $left -gt 0 ]; do
  wait -n -p done_pid; st=$?; left=$((left-1))
  for ((t=0; t<n; t++)); do [ "${pids[$t]}" = "$done_pid" ] && task=$t; done
  if [ $st -ne 0 ]; then
    [ $st -gt $worst ] && worst=$st
    if [ $left -gt 0 ] && [ -z "${killed:-}" ]; then
      echo "srun: error: $(hostname): task $task: Exited with exit code $st" >&2
      echo "srun: Terminating job step $SLURM_JOB_ID.0" >&2
      killed=1; for p in "${pids[@]}"; do pkill -TERM -P $p 2>/dev/null; done
    elif [ -n "${killed:-}" ]; then
      echo "srun: error: $(hostname): task $task: Exited with exit code $st" >&2
    fi
  fi
done
exit $worst
