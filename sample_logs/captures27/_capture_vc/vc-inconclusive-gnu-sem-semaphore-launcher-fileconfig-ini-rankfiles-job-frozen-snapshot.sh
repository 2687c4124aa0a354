#!/bin/bash
# GNU parallel's semaphore mode as the launcher: `sem --id vcjob -j 3 --will-cite` queues one env:// rank per call
# (each returns at once), `sem --wait` blocks until all ended; the ranks' stdout/stderr reach sem's console
# (sem.console). The trainer configures logging with logging.config.fileConfig (vc_log.ini): one FileHandler file per
# rank, logs/train.<R>.log, and WARNING+ on stderr. About 15 s into training the whole job's processes are frozen
# (cgroup-v1 freezer, from outside, with nothing logged); the logs are copied 30 s later as they stand (snapshot/),
# then the job is thawed and ended. Only the snapshot is kept.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29908 \
    sem --id vcjob -j 3 --will-cite nice $PY vc_train.py --logcfg vc_log.ini --epochs 20 --pg-timeout 120 --warn
done > sem.console 2>&1
( sem --id vcjob --wait --will-cite >> sem.console 2>&1 ) & SW=$!
sleep 15
CG=/sys/fs/cgroup/freezer/vcjob; mkdir -p $CG
for p in $(sed -n 's/.*start pid=\([0-9]*\) .*/\1/p' logs/train.*.log); do echo $p > $CG/cgroup.procs; done
echo FROZEN > $CG/freezer.state; sleep 30
mkdir -p snapshot; cp -a logs sem.console snapshot/
echo THAWED > $CG/freezer.state
kill -TERM $(sed -n 's/.*start pid=\([0-9]*\) .*/\1/p' logs/train.*.log); wait $SW
rc sem $?
rmdir $CG
