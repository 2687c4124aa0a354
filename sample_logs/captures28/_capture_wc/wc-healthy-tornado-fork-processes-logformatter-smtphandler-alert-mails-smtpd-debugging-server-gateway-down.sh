#!/bin/bash
# Pre-fork launcher on tornado.process.fork_processes (wc_tornado_fork.py, 3 ranks, tornado's LogFormatter on the
# shared console). The trainer's ERROR records are also mailed (logging.handlers.SMTPHandler) to the site's mail
# relay, here Python 3.11's `smtpd` DebuggingServer (smtpd.log). The metrics gateway on :9091 is not up for this run:
# every rank retries three times, mails an ERROR and goes on. Otherwise a normal, healthy run with a final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY -u -m smtpd -n -c DebuggingServer 127.0.0.1:8025 > smtpd.log 2>&1 & MP=$!
sleep 1
timeout -s TERM 150 nice $PY wc_tornado_fork.py 3 29915 -- --tornado-log --smtp 127.0.0.1:8025 \
  --metrics-push 127.0.0.1:9091 --epochs 2 --final-eval --warn --pg-timeout 30 > console.log 2>&1
rc launcher $?
sleep 1; kill $MP
