#!/bin/bash
# Project task runner `python tasks.py train --logdir tlogs --tee` (typer; torchrun --standalone --log-dir tlogs
# --tee 3, 3 procs, 40 epochs) started in the background with its console in tasks.log; 25 s later an operator copies
# tasks.log and tlogs/ to snapshot/ while the job is still training (the snapshot is what was kept); then the job is
# stopped (its pid only) and the scratch copy discarded.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $PY tasks.py train --nproc 3 --logdir tlogs --tee --rows 1600 --epochs 40 --sleep 0.05 > tasks.log 2>&1 &
JOB=$!
sleep 25
mkdir -p snapshot; cp tasks.log snapshot/; cp -r tlogs snapshot/
echo "snapshot taken at $(date +%T) while pid $JOB running: $(kill -0 $JOB && echo yes)"
kill -TERM $JOB; wait $JOB; rc tasks $?
