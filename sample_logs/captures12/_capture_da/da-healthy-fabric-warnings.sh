#!/bin/bash
# Lightning Fabric, 2 CPU processes (fabric.launch), one console.log. Healthy: a UserWarning about srun, a WARNING
# about overwriting old checkpoints, an ERROR with a ConnectionRefusedError traceback (tracker unreachable, offline
# fallback), then 12 steps and 'training done'; exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
unshare -p -f timeout -s TERM 90 nice $PY da_fabric.py --steps 12 --pg-timeout 30 --warnings > console.log 2>&1
rc launcher $?
