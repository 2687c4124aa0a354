#!/bin/bash
# python ia_ray.py: Ray Train TorchTrainer, 2 CPU workers (gloo), RunConfig(failure_config=FailureConfig(max_failures=1)),
# a checkpoint per epoch (rank 0), ray.init(num_cpus=2) local cluster; Ray's own default log deduplication. Workers
# log with asctime format on stderr (Ray prefixes `(RayTrainWorker pid=N)`), the driver prints `[driver]` lines.
# console.log = the driver's stdout + stderr (Ray forwards worker output there).
# Planted (transient): the driver's metrics sink on 127.0.0.1:29790 resets the first connection it accepts (a
# SO_LINGER-0 close, like a sink still starting up); the worker whose epoch-0 post lands first gets
# ConnectionResetError, the attempt fails, and FailureConfig(max_failures=1) lets Ray restart the worker group
# from the last checkpoint.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export RAY_TMPDIR=/tmp/ray_ia HOME=$J
timeout -s TERM 240 nice $PY ia_ray.py --epochs 3 --steps 6 --sink-port 29790 > console.log 2>&1
rc python $?
