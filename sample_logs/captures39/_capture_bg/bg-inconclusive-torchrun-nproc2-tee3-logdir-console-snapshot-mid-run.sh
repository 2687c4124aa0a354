#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bg_train.py (logging, all ranks on the console),
# 6000 steps planned. ~20 s in, console.log and the logs/ tree are copied to snapshot/ (as someone looking at a
# running job would); the job is then stopped (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 2 --rows 4096 > prep.log
torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bg_train.py --data data --steps 6000 --log-every 50 \
  --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1 & T=$!
sleep 20; mkdir -p snapshot; cp console.log snapshot/; cp -r logs snapshot/
kill $T; wait $T; rc torchrun $?
