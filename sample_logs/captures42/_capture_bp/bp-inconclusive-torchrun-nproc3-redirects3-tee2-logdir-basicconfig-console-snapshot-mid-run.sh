#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 2 --log-dir logs bp_train.py (logging.basicConfig defaults,
# i.e. stderr, teed to the console), 400 epochs planned. ~20 s in, console.log and logs/ are copied to snapshot/ (as
# someone looking at the running job would); the job is then stopped (not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 3 --rows 512 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 2 --log-dir logs bp_train.py --data data --epochs 400 --log-every 16 --step-sleep 0.01 > console.log 2>&1 & T=$!
sleep 20; mkdir -p snapshot; cp console.log snapshot/; cp -r logs snapshot/
kill $T; wait $T; rc torchrun $?
