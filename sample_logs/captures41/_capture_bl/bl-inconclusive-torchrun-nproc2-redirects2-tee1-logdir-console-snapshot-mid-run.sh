#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bl_train.py (logging to stdout, teed to
# the console; stderr only in logs/), 5000 steps planned. ~15 s in, console.log and the logs/ tree are copied to
# snapshot/ (as someone looking at the running job would); the job is then stopped (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out data --shards 2 --rows 1024 > prep.log
torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bl_train.py --data data --steps 5000 \
  --log-every 50 --step-sleep 0.01 --pg-timeout 60 > console.log 2>&1 & T=$!
sleep 15; mkdir -p snapshot; cp console.log snapshot/; cp -r logs snapshot/
kill $T; wait $T; rc torchrun $?
