#!/bin/bash
# monit (5.33) as the job supervisor: monitrc with one `check process rank<R> with pidfile run/rank<R>.pid` per
# env:// rank, whose start program (xc_monit_rank.sh) starts the rank detached with its output appended to
# logs/rank<R>.log; monit polls every 5 s and logs to monit.log; `monit status` through its HTTP interface on
# 127.0.0.1:2812. About 35 s after monit started, the rank logs, monit.log and a `monit status` report were copied
# to snapshot/ while the job was still training (8 epochs); then the collector stopped the ranks and monit (not
# part of the snapshot).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs run snapshot
{
  printf 'set daemon 5\nset logfile %s/monit.log\nset pidfile %s/run/monit.pid\nset idfile %s/run/monit.id\n' "$J" "$J" "$J"
  printf 'set statefile %s/run/monit.state\nset httpd port 2812 and use address 127.0.0.1\n    allow localhost\n\n' "$J"
  for r in 0 1 2; do
    printf 'check process rank%d with pidfile %s/run/rank%d.pid\n' $r "$J" $r
    printf '    start program = "%s/xc_monit_rank.sh %s %d 3 29932 -- --epochs 8 --sleep 0.1 --pg-timeout 60 --warn"\n' "$J" "$J" $r
    printf '        with timeout 20 seconds\n'
    printf '    stop program = "/bin/sh -c '"'"'kill -TERM $(cat %s/run/rank%d.pid)'"'"'"\n' "$J" $r
    printf '    if totalmem > 1500 MB for 2 cycles then alert\n\n'
  done
} > monitrc
chmod 0600 monitrc
monit -c monitrc > monit.console 2>&1
sleep 35
cp -a logs/. snapshot/; cp monit.log snapshot/; monit -c monitrc status > snapshot/monit-status.txt 2>&1
ls snapshot > snapshot.list
monit -c monitrc stop all >> monit.console 2>&1; sleep 6; monit -c monitrc quit >> monit.console 2>&1; sleep 2
for r in 0 1 2; do kill -TERM $(cat run/rank$r.pid) 2>/dev/null; done
rc snapshot 0
