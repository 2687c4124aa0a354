#!/bin/bash
# Bash launcher: a `for` loop starts 3 env:// rank shells with `&`, each rank's stdout+stderr piped through
# `stdbuf -oL` and a mawk filter that stamps every line with the wall time (a `ts` stand-in; moreutils is not
# installed) into stamped/rank<R>.log; the launcher reaps with `wait -n` and logs to launcher.log.
# The trainer's epoch-end checkpoint block calls dist.barrier() inside the rank-0-only branch (indentation bug), so
# rank 0 waits in a barrier no other rank enters. Process-group timeout 20 s (short, so the deadlock ends).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p stamped ckpt
exec 3>>launcher.log
echo "$(date '+%F %T') launcher: 3 ranks, master 127.0.0.1:29611" >&3
for r in 0 1 2; do
  ( RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29611 timeout -s TERM 120 nice \
      stdbuf -oL -eL $PY rc_train.py --rows 800 --epochs 2 --ckpt ckpt/model.pt --rank0-barrier --pg-timeout 20 2>&1 \
      | mawk -W interactive -v r=$r '{ print strftime("%b %d %H:%M:%S"), "r" r, $0; fflush() }' > stamped/rank$r.log
    exit ${PIPESTATUS[0]} ) &
  echo "$(date '+%F %T') launcher: rank $r started (shell pid $!)" >&3
done
for i in 1 2 3; do
  wait -n -p pid; st=$?
  echo "$(date '+%F %T') launcher: shell pid $pid exited with status $st" >&3
done
echo "$(date '+%F %T') launcher: done" >&3
rc launcher $st
