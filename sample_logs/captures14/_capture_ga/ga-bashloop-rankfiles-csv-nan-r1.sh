#!/bin/bash
# bash loop x3, env:// rendezvous (MASTER_ADDR/PORT, RANK, WORLD_SIZE); each rank's stdout+stderr redirected to its own
# logs/r<R>.txt; the trainer print()s `[r<R>] msg` and logs its local and the all-reduced mean loss per step.
# Planted: rank 1's CSV shard data/train-01.csv has the literal `nan` in row 100 (feature f3): the batch of step 7.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_data.py data 3 192 --nan-rank 1 --nan-row 100 --nan-col 3
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29801 WORLD_SIZE=3
pids=()
for R in 0 1 2; do
  RANK=$R LOCAL_RANK=$R timeout -s TERM 90 nice $PY ga_train.py --steps 12 --sleep 0.2 --pg-timeout 30 --log-style print \
    --data-dir data > logs/r$R.txt 2>&1 &
  pids+=($!)
done
for R in 0 1 2; do wait ${pids[$R]}; rc rank$R $?; done
