#!/bin/bash
# `python mc_fabric_rich.py`: Lightning Fabric with fabric.launch() on CPU (strategy ddp, devices 2, gloo; Fabric's
# subprocess launcher starts rank 1), rich Console/RichHandler output; PYTHONWARNINGS=always so the deprecated helper
# in the input path prints its FutureWarning and torch's copy-construct UserWarning on every step of both ranks.
# Nothing planted: a healthy run ending with a final distributed eval and metrics.json.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export PYTHONWARNINGS=always
timeout -s TERM 170 nice $PY mc_fabric_rich.py > console.log 2>&1
rc python $?
