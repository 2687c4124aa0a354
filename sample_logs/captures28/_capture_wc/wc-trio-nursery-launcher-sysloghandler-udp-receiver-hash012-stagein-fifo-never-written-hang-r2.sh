#!/bin/bash
# trio launcher (wc_trio_launch.py) with the ranks' logging going to the site's syslog receiver over UDP
# (logging.handlers.SysLogHandler, facility local3) and stdout/stderr to stdio/rank<R>.log. Rank 2 is the data
# loader host: after the process group comes up it waits for the stage-in copy agent's ready marker on a fifo
# (stage/ready.fifo). The copy agent was never started on this run, so rank 2 blocks on open(); its peers reach the
# DDP constructor's parameter broadcast and time out (process-group timeout 20 s).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p stage syslog; mkfifo stage/ready.fifo
$PY wc_syslog_udp.py 5514 syslog/messages & SP=$!
timeout -s TERM 120 nice $PY wc_trio_launch.py --nproc 3 --port 29911 --grace 10 -- $PY wc_train.py --no-stdout \
  --syslog 127.0.0.1:5514 --stage-fifo stage/ready.fifo --stage-rank 2 --epochs 1 --pg-timeout 20 --warn
rc launcher $?
sleep 1; kill $SP
