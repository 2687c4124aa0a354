#!/bin/bash
# Ray Train TorchTrainer, 2 workers, gloo; ray.init(address='local', _temp_dir=r; short: the AF_UNIX socket path limit): driver console (console.log)
# + r/session_<ts>/logs/worker-*.{out,err} etc. HOME is the scratch dir, no usage stats.
# Planted: the run config selects attn=flash; the optional flash_attn package is not installed: every worker
# raises ModuleNotFoundError while building the model.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p home
RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home nice $PY cx_ray.py --workers 2 --temp-dir r --attn flash > console.log 2>&1
rc driver $?
