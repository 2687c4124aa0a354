#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --log-dir logs --tee 3 in the foreground of an interactive-style shell
# (job control on: the job is its own process group, like a terminal's foreground job), console in console.log and the
# --log-dir tree. Rank 0 shows a tqdm bar per epoch, the others print. 14 s in the user presses Ctrl-C: SIGINT is
# delivered to the whole foreground process group (agent and the four workers).
. "$(dirname "$(readlink -f "$0")")/common.sh"
set -m
$PY aw_prep.py --out data --shards 4 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 4 --log-dir logs --tee 3 aw_train.py --data data --epochs 20 --step-sleep 0.1 \
  --log-style tqdm --pg-timeout 60 > console.log 2>&1 & P=$!
sleep 14; kill -INT -- -$P
wait $P; rc torchrun $?
