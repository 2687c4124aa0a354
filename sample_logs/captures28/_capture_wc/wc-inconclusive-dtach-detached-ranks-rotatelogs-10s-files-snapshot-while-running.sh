#!/bin/bash
# Every env:// rank started detached under dtach (`dtach -n sock/rank<R>`, no client attached), its output piped
# into Apache's rotatelogs (`rotatelogs -f logs/rank<R>.%Y%m%d-%H%M%S.log 10`: a new file every 10 s). The files
# were copied (snapshot/) about 27 s after the start, while the job was still training (6 epochs), then the job was
# ended by the collector (not part of the snapshot).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p sock logs
for r in 0 1 2; do
  dtach -n sock/rank$r -Ez bash -c "RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29917 \
    nice $PY wc_train.py --epochs 6 --sleep 0.1 --pg-timeout 30 --warn \
    --fmt '[%(asctime)s] {rank}/{world} %(levelname)s %(name)s %(message)s' 2>&1 \
    | rotatelogs -f logs/rank$r.%Y%m%d-%H%M%S.log 10"
done
sleep 27
cp -a logs snapshot
for p in $(sed -n 's/.*start pid=\([0-9]*\) .*/\1/p' logs/*.log); do kill -TERM $p; done
sleep 2; ls snapshot > snapshot.list; rc snapshot 0
