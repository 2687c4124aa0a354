#!/bin/bash
# torch.multiprocessing.start_processes(..., nprocs=3, start_method="forkserver") from da_startproc.py: each rank
# logs JSON lines (logging.Formatter subclass) to logs/rank{R}.jsonl only; console.log = the parent (the
# start_processes report) and what C++/warnings write to stderr. Gradients all-reduced by hand (one flat tensor).
# Planted: after step 4's optimizer step rank 0 alone runs a validation pass whose accuracy is all-reduced
# (a 2-float all_reduce) -- ranks 1, 2 go straight on to step 5's gradient all_reduce (676 floats).
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 90 nice $PY da_startproc.py --nprocs 3 --port 29631 -- --steps 10 --pg-timeout 30 --manual-sync \
  --log-style json --log-file 'logs/rank{rank}.jsonl' --fault eval_rank0 --fault-step 4 > console.log 2>&1
rc launcher $?
