#!/bin/bash
# circus (circusd + circusctl) as the launcher: one watcher "trainer" with numprocesses = 3 and the rank taken from
# circus' worker id `--rank $(circus.wid)`; stdout / stderr of all processes into two FileStream files with circus'
# time prefix (logs/trainer.stdout.log, logs/trainer.stderr.log); circusd's own log in logs/circusd.log.
# The job script polls `circusctl status` and quits circusd when the watcher has no process left.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
nice $V/circusd --log-level info --log-output logs/circusd.log uc_circus.ini &
CPID=$!
sleep 5
for i in $(seq 1 60); do
  sleep 3
  n=$($V/circusctl --endpoint ipc://circus-ctl.sock numprocesses trainer 2>/dev/null)
  st=$($V/circusctl --endpoint ipc://circus-ctl.sock list trainer 2>/dev/null)
  echo "$(date '+%F %T') poll $i: numprocesses=$n pids=[$st]" >> poll.txt
  [ "$st" = "" ] && break
done
$V/circusctl --endpoint ipc://circus-ctl.sock quit >> poll.txt 2>&1
wait $CPID; rc circusd $?
