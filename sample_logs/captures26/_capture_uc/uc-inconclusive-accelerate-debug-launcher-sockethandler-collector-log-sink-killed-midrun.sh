#!/bin/bash
# accelerate's debug_launcher (torch start_processes, fork, file:// rendezvous) as the launcher of a 3-process CPU
# run; the processes log only through logging.handlers.SocketHandler to the team's log collector (uc_logcollector.py,
# the logging cookbook's TCP receiver, one file collector.log); the launcher's own stdout/stderr in launcher.out.
# 20 s into the run the collector is SIGKILLed (the node's agent restart) and not started again; SocketHandler drops
# records silently while its peer is gone. What we keep: collector.log and launcher.out as they are at the end.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY uc_logcollector.py 9020 collector.log > collector.stderr 2>&1 &
COLL=$!
sleep 2
timeout -s TERM 240 nice $PY uc_acc_debug_launch.py --nproc 3 --epochs 40 --collector 127.0.0.1:9020 > launcher.out 2>&1 &
L=$!
sleep 20; kill -9 $COLL; echo "$(date '+%F %T') collector pid $COLL SIGKILLed" > harness-note.txt
wait $L; rc launcher $?
