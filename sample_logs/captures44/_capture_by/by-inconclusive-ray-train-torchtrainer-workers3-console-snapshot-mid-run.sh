#!/bin/bash
# python by_ray.py --mode train --workers 3 --epochs 40 --step-sleep 0.02: ray.train.torch.TorchTrainer (Ray 2.60,
# gloo on CPU, local cluster from ray.init), one console. The console was copied (snapshot/console.log) 50 s after
# the start while the workers were still training, then the job was stopped (SIGKILL to its process group). No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 3 --rows 1024 > prep.log
export RAY_TMPDIR=/tmp/by_ray_$$
setsid $PY by_ray.py --mode train --workers 3 --epochs 40 --step-sleep 0.02 > console.log 2>&1 &
pid=$!
sleep 50; mkdir -p snapshot; cp console.log snapshot/console.log
kill -KILL -- -$pid; wait $pid
rc python $?
