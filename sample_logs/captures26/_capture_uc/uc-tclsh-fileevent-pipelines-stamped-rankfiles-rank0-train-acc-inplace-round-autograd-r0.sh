#!/bin/bash
# Tcl site launcher (uc_launch.tcl: one `open |cmd 2>@1` pipeline per env:// rank, fileevent readers, local-time
# stamped logs/rank-<R>.log, launcher lines in logs/launch.log, SIGTERM to the rest after a grace period), 3 ranks.
# The multi-label trainer logs a training accuracy on rank 0 every 10 steps, computed from the sigmoid outputs
# (probs.round_() in place) before loss.backward().
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice tclsh uc_launch.tcl -nproc 3 -port 29811 -logdir logs -grace 10 -- \
  $PY uc_train.py --multilabel --train-acc --rows 1600 --epochs 2 --pg-timeout 60 \
  --fmt '%(levelname)-7s [%(name)s] r{rank}/{world} %(message)s'
rc launcher $?
