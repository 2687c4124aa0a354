#!/bin/bash
# xc_monit_rank.sh JOBDIR RANK WORLD PORT -- TRAIN_ARGS...: monit's start program for one env:// rank: starts the
# trainer detached (setsid), stdout+stderr appended to logs/rank<R>.log, pid in run/rank<R>.pid, and returns.
J=$1 R=$2 W=$3 P=$4; shift 5
cd "$J" || exit 1
setsid env -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 RANK=$R LOCAL_RANK=$R WORLD_SIZE=$W MASTER_ADDR=127.0.0.1 \
  MASTER_PORT=$P PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 nice /home/user/venv/bin/python xc_train.py "$@" \
  >> logs/rank$R.log 2>&1 < /dev/null &
echo $! > run/rank$R.pid
