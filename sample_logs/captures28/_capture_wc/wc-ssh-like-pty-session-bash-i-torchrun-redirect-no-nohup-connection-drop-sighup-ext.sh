#!/bin/bash
# An interactive login session (wc_pty_session.py: `bash -i` on a pty, the user's terminal scrollback kept as
# session.typescript) in which the user typed `torchrun ... > train.log 2>&1 &` (no nohup, no setsid) and then
# `tail -f` on the log. 40 s later the connection dropped: the session is hung up, bash sends SIGHUP to its jobs,
# the torchrun agent gets SIGHUP and stops its workers. Nothing failed in the job itself.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 $PY wc_pty_session.py 40 session.typescript \
  "cd $J && torchrun --standalone --nproc-per-node 3 wc_train.py --epochs 8 --sleep 0.1 --pg-timeout 30 --fmt '%(asctime)s {rank}/{world} %(levelname)s: %(message)s' > train.log 2>&1 & sleep 1; tail -n 3 -f train.log"
rc session $?
sleep 8
