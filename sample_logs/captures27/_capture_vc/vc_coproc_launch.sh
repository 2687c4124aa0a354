#!/bin/bash
# vc_coproc_launch.sh NPROC PORT -- CMD...: bash launcher with one `coproc` per env:// rank (stdout+stderr of the rank
# on the coproc's pipe); the launcher polls the coproc fds round-robin with `read -t` and writes job.log lines
# `HH:MM:SS r<R>| <line>` (printf %(...)T stamps); launcher's own lines tagged `launch|`.
NPROC=$1 PORT=$2; shift 3
declare -a FD PID
for ((r = 0; r < NPROC; r++)); do
  eval "coproc R$r { RANK=$r LOCAL_RANK=$r WORLD_SIZE=$NPROC MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT exec \"\$@\" 2>&1; }"
  eval "FD[$r]=\${R$r[0]}; PID[$r]=\$R${r}_PID"
  exec {dup}<&"${FD[$r]}"; FD[$r]=$dup
  printf '%(%T)T launch| rank %d coproc pid %d\n' -1 "$r" "${PID[$r]}"
done
declare -A OPEN; for ((r = 0; r < NPROC; r++)); do OPEN[$r]=1; done
while ((${#OPEN[@]})); do
  for r in "${!OPEN[@]}"; do
    while :; do
      IFS= read -r -t 0.05 -u "${FD[$r]}" line; rc=$?
      if ((rc == 0)); then printf '%(%T)T r%d| %s\n' -1 "$r" "$line"; continue; fi
      if ((rc == 1)); then
        [ -n "$line" ] && printf '%(%T)T r%d| %s\n' -1 "$r" "$line"
        wait "${PID[$r]}" 2>/dev/null; st=$?
        printf '%(%T)T launch| rank %d (pid %d) exited with status %d\n' -1 "$r" "${PID[$r]}" "$st"
        unset "OPEN[$r]"
      fi
      break
    done
  done
done
printf '%(%T)T launch| all ranks ended\n' -1
