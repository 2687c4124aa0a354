#!/bin/bash
# Own bash launcher (one background process per rank, RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT exported) whose ranks'
# stdout+stderr go through util-linux `logger -t lctrain.rank<R> -i` to the job namespace's syslog socket; the
# messages land in `syslog` in rsyslog's traditional format (written by lc_syslogd.py, a minimal local syslog
# daemon: the machine has no rsyslog/journald). launcher.log = the bash launcher's own lines.
# Each rank allocates a 1536 MiB in-memory prefetch cache (--cache-mb 1536).
# Planted: rank 1 runs under `ulimit -v 2300000` (a per-process address-space limit left in the node's
# limits.conf for that slot), too small for the cache on top of torch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY lc_syslogd.py "$J/log.sock" "$J/syslog" & sysd=$!
sleep 1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29571 WORLD_SIZE=2
log() { echo "$(date '+%F %T') launcher: $*" >> launcher.log; }
log "starting 2 ranks on $(hostname), master $MASTER_ADDR:$MASTER_PORT"
pids=()
for r in 0 1; do
  (
    [ $r = 1 ] && ulimit -v 2300000
    RANK=$r LOCAL_RANK=$r timeout -s TERM 150 nice $PY lc_train.py --cache-mb 1536 --steps 12 --pg-timeout 30
    echo $? > rank$r.status
  ) 2>&1 | logger -u "$J/log.sock" -t lctrain.rank$r -i &
  pids+=($!)
  log "rank $r started (pipeline pid $!)"
done
for r in 0 1; do
  wait ${pids[$r]}; s=$(cat rank$r.status)
  log "rank $r exited with status $s"; rc rank$r $s
done
sleep 1; kill $sysd
log "done"
