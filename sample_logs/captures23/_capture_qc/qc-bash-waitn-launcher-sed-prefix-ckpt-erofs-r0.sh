#!/bin/bash
# Bash launcher with `wait -n`: starts 3 env:// ranks in the background, each rank's stdout+stderr through
# `sed -u "s/^/r<R>| /"` into one job.log (the launcher's own `launcher:` lines go there too); when the first rank
# exits non-zero it SIGTERMs the other ranks. Checkpoints every 30 steps by rank 0 to ckpt/last.pt; ckpt/ is a
# read-only bind mount (the site's checkpoint volume was remounted read-only after an fs error).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt; mount --bind ckpt ckpt; mount -o remount,bind,ro ckpt
exec > job.log 2>&1
echo "launcher: $(date '+%F %T') starting 3 ranks on $(hostname)"
declare -A PID
for r in 0 1 2; do
  RANK=$r WORLD_SIZE=3 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=29877 timeout -s TERM 120 nice $PY qc_train.py \
    --rows 2500 --epochs 1 --ckpt ckpt/last.pt --ckpt-every 30 --pg-timeout 30 > >(sed -u "s/^/r$r| /") 2>&1 &
  PID[$r]=$!; echo "launcher: rank $r pid ${PID[$r]}"
done
fail=0
for i in 0 1 2; do
  wait -n -p done_pid; st=$?
  for r in 0 1 2; do [ "${PID[$r]}" = "$done_pid" ] && dr=$r; done
  echo "launcher: $(date '+%T') rank $dr (pid $done_pid) exited with status $st"
  if [ $st -ne 0 ] && [ $fail = 0 ]; then
    fail=1; echo "launcher: rank $dr failed, sending SIGTERM to the remaining ranks"
    for r in 0 1 2; do [ $r != $dr ] && kill -TERM ${PID[$r]} 2>/dev/null; done
  fi
done
sleep 1; echo "launcher: $(date '+%T') job $([ $fail = 0 ] && echo finished || echo FAILED)"
umount ckpt
