#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs (console with [defaultN]: prefixes plus per-rank
# stdout/stderr files under logs/). Not faulted: a long run (40 epochs) whose console and log dir are copied into
# snapshot/ 12 s after the start, while it is still training (then the scratch job is stopped; only the snapshot
# is kept).
. "$(dirname "$(readlink -f "$0")")/common.sh"
setsid torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs aj_train.py --epochs 40 --rows 2048 --bs 64 \
  --sleep 0.03 --log-every 10 > console.log 2>&1 &
P=$!
sleep 12
mkdir -p snapshot && cp -r console.log logs snapshot/
kill -TERM -- -$P; wait $P; rc torchrun $?
