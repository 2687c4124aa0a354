#!/bin/bash
# `python mc_ray_actors.py`: a local Ray instance (ray.init in the driver, num_cpus=3, no dashboard, temp dir /tmp/raymc)
# with 3 RankWorker actors that each join a gloo process group and average gradients by hand
# (all_reduce of every .grad); console.log = driver output incl. the actor output Ray forwards.
# Planted: conf.json's rank_overrides give rank 1 `"precision": "64"` (left over from a numerics debugging session
# on that replica): rank 1's model is float64, so its gradient all_reduce sends float64 tensors while ranks 0 and 2
# send float32.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > conf.json <<'EOC'
{"world": 3, "steps": 30,
 "defaults": {"lr": 0.05, "batch": 32, "precision": "32"},
 "rank_overrides": {"1": {"precision": "64"}}}
EOC
export RAY_DEDUP_LOGS=0 RAY_USAGE_STATS_ENABLED=0
timeout -s TERM 170 nice $PY mc_ray_actors.py > console.log 2>&1
rc python $?
rm -rf /tmp/raymc
