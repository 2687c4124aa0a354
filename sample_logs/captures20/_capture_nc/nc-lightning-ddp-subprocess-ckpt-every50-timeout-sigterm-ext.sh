#!/bin/bash
# `python nc_pl_slow.py`: Lightning Trainer strategy ddp, accelerator cpu, devices 2 (Lightning's subprocess launcher
# re-runs the script for rank 1), ModelCheckpoint(every_n_train_steps=50); console.log = everything printed.
# Planted (external): the job's wall-clock limit, `timeout -s TERM -k 30 45` (SIGTERM to the launching rank-0 process
# at 45 s, SIGKILL 30 s later if it is still there, like a batch system's time limit + kill wait); the job needs
# ~2 min for its 3 epochs. The job runs in its own PID namespace (`unshare -p --fork --kill-child`, `timeout` is the
# namespace's init) so that processes left behind die when the limit's SIGKILL ends the job step.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice unshare -p --fork --kill-child timeout -s TERM -k 30 45 $PY nc_pl_slow.py > console.log 2>&1
rc unshare $?
