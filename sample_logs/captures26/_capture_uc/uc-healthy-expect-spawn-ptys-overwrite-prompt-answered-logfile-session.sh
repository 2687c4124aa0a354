#!/bin/bash
# expect (Tcl) as the launcher: uc_run_train.exp spawns every env:// rank on its own pty, answers the trainer's
# "output dir ... exists ... Overwrite? [y/N]" prompt with "y" (yesterday's run left runs/exp1/rank<R>/), and keeps
# the whole session - all ranks' pty output as read, CR LF line ends, the echoed answers, its own [run_train.exp]
# lines - in one log_file, session.log. 3 ranks, 3 epochs, final evaluation.
. "$(dirname "$(readlink -f "$0")")/common.sh"
for r in 0 1 2; do mkdir -p runs/exp1/rank$r; echo old > runs/exp1/rank$r/model.pt; done
timeout -s TERM 240 nice expect uc_run_train.exp 3 29899 session.log -- $PY uc_train.py --outdir 'runs/exp1/rank{rank}' \
  --epochs 3 --rows 1200 --final-eval --warn --pg-timeout 60 --fmt '%(asctime)s - rank{rank} - %(levelname)s - %(message)s'
rc expect $?
