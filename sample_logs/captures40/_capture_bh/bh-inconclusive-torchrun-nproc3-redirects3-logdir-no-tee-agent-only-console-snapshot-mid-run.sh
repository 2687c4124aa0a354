#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py (logging; every rank's stdout and
# stderr only in logs/, the console holds only torchrun's own lines), 5000 steps planned. ~25 s in, console.log and
# the logs/ tree are copied to snapshot/ (as someone looking at the running job would); the job is then stopped
# (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 2048 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --steps 5000 \
  --log-every 50 --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1 & T=$!
sleep 25; mkdir -p snapshot; cp console.log snapshot/; cp -r logs snapshot/
kill $T; wait $T; rc torchrun $?
