#!/bin/bash
# mpirun -np 2 --output-filename mpilogs (Open MPI 4.1 per-rank files mpilogs/1/rank.N/{stdout,stderr}), no mpi4py:
# kc_train.py reads OMPI_COMM_WORLD_RANK/SIZE and initialises gloo through MASTER_ADDR/PORT passed with -x.
# --log-style tqdm: a tqdm progress bar per rank on stderr (carriage-return updates kept) and the log lines via
# tqdm.write; console.log = mpirun's console (it also forwards the ranks' output there, with its own messages).
# Planted: ~14 s after launch an outside process (standing in for an operator's `kill -9` / a node health daemon)
# sends SIGKILL to rank 1's python process (picked among mpirun's children by OMPI_COMM_WORLD_RANK=1).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice mpirun --allow-run-as-root --oversubscribe -np 2 --bind-to none --mca btl self,vader \
  --mca oob_tcp_if_include lo --output-filename mpilogs -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29741 \
  -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH \
  $PY kc_train.py --log-style tqdm --steps 60 --sleep 0.4 --pg-timeout 30 > console.log 2>&1 & mp=$!
sleep 14
for c in $(pgrep -P "$(pgrep -P $mp)"); do  # timeout -> mpirun -> ranks
  if tr '\0' '\n' < /proc/$c/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; then
    echo "$(date '+%F %T') killing pid $c (rank 1) with SIGKILL" > kill.txt; kill -KILL $c; fi
done
wait $mp; rc mpirun $?
