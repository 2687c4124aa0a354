#!/bin/bash
# tini (0.19, `tini -s -g --`, as subreaper, signals to the whole group) running a bash launcher whose ranks each
# pipe their output into cronolog (`logs/<YYYY-MM-DD>/rank<R>-<HHMM>.log`, a new file every minute, plus the
# `logs/rank<R>.current` symlink). A snapshot of the logs tree (and launch.log) was copied to snapshot/ about 100 s
# into a long run that was still training normally; the job was then stopped by the collector (not part of the logs).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
tini -s -g -- ./yc_cronolog_launch.sh 3 29952 -- nice $PY yc_train.py --epochs 200 --sleep 0.06 --pg-timeout 60 \
  --fmt '%(asctime)s [%(levelname)s] (rank {rank}) %(name)s: %(message)s' > launch.log 2>&1 & TINI=$!
sleep 100
mkdir -p snapshot && cp -a logs launch.log snapshot/
rc snapshot 0
kill -TERM $TINI; wait $TINI
