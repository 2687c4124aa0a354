#!/bin/bash
# torch.multiprocessing.spawn(nprocs=2) inside ap_train.py, JSON-lines logging to the console and to per-rank files
# (ranklogs/rankN.log); a long run (30 epochs). The console and rank files are copied 20 s after the start while
# the job is still training (snapshot); the job is then stopped (the stop is not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 2 --rows 1024 > prep.log
$PY ap_train.py --data data --nprocs 2 --epochs 30 --log-style json --log-dir ranklogs --step-sleep 0.15 --ckpt ckpt > run.console 2>&1 & P=$!
sleep 20; mkdir -p snapshot/ranklogs; cp run.console snapshot/console.log; cp ranklogs/rank*.log snapshot/ranklogs/
pkill -TERM -P $P; kill -TERM $P; wait $P; rc spawn $?
