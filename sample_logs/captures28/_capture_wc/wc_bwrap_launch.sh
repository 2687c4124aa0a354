#!/bin/bash
# wc_bwrap_launch.sh NPROC PORT RUNAS -- CMD...: site sandbox launcher. Every env:// rank runs in its own bubblewrap
# sandbox (read-only /, the job dir bound read-write, private /tmp, /proc and PID namespace, dies with the launcher)
# and drops to the job user with setpriv. Rank stdout+stderr -> sandbox/rank<R>/console.log; the launcher's own
# lines (`[sbx-launch <epoch.ms>] ...`) on stdout.
NPROC=$1 PORT=$2 RUNAS=$3; shift 4
say() { printf '[sbx-launch %s] %s\n' "$(date +%s.%3N)" "$*"; }
declare -a PIDS
for ((r = 0; r < NPROC; r++)); do
  mkdir -p sandbox/rank$r
  bwrap --ro-bind / / --bind "$PWD" "$PWD" --dev /dev --proc /proc --perms 1777 --tmpfs /tmp --unshare-pid --die-with-parent \
    --chdir "$PWD" --setenv HOME /tmp --setenv RANK $r --setenv LOCAL_RANK $r --setenv WORLD_SIZE $NPROC \
    --setenv MASTER_ADDR 127.0.0.1 --setenv MASTER_PORT $PORT \
    setpriv --reuid "${RUNAS%:*}" --regid "${RUNAS#*:}" --clear-groups -- "$@" > sandbox/rank$r/console.log 2>&1 &
  PIDS[$r]=$!
  say "rank $r: sandbox pid ${PIDS[$r]} uid ${RUNAS%:*} (bwrap $(bwrap --version | cut -d' ' -f2))"
done
fail=0
while ((${#PIDS[@]})); do
  done_pid=; wait -n -p done_pid; st=$?
  [ -z "$done_pid" ] && break
  for r in "${!PIDS[@]}"; do [ "${PIDS[$r]}" = "$done_pid" ] && break; done
  say "rank $r: sandbox pid $done_pid exited $st"; unset "PIDS[$r]"
  if ((st != 0 && fail == 0)); then
    fail=$st; say "rank $r failed; stopping sandboxes ${PIDS[*]}"
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  fi
done
say "job finished, status $fail"; exit $fail
