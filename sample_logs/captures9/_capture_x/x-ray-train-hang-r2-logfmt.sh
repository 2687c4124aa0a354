#!/bin/bash
# Ray Train TorchTrainer, 3 workers, gloo with TorchConfig(timeout_s=20); ray.init(_temp_dir=rt): driver console
# (console.log) + rt/session_<ts>/logs/worker-*.{out,err}. Workers log in logfmt. Rank 2 blocks 60 s before
# step 5 (after a 'waiting for eval shard lock' INFO line); ranks 0, 1 time out in the all-reduce.
# HOME is the scratch dir (Ray writes $HOME/.ray), no usage stats.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p home
RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home nice $PY x_ray.py --workers 3 --temp-dir rt --pg-timeout 20 \
  --hang-rank 2 --hang-step 5 --hang-s 60 > console.log 2>&1
rc driver $?
