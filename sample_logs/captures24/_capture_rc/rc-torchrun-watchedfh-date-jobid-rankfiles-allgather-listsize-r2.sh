#!/bin/bash
# torchrun (standalone, 3 procs) with the trainer logging only through logging.handlers.WatchedFileHandler into
# logs/<date>/<jobid>/rank<R>.log (site layout; JOBID made up by the wrapper), torchrun's own console in torchrun.out.
# At each epoch end every rank all_gathers [loss, step]; rank 2 (a stale metrics patch) sizes its output list 2, not 3.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export JOBID=73114 
D=logs/$(date +%F)/$JOBID
timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 3 rc_train.py --rows 900 --epochs 2 --pg-timeout 30 \
  --logto "watched:$D/rank{rank}.log" --gather-list 2:2 > torchrun.out 2>&1
rc torchrun $?
