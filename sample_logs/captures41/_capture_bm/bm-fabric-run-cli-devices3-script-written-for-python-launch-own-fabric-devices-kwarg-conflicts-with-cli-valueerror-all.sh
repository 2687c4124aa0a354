#!/bin/bash
# fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --launch: the Lightning Fabric CLI launcher
# starts 3 processes, but the run command was copied from the notebook recipe that runs the script with plain python
# (`python bm_fabric.py --launch --devices 3`), so every process builds its own Fabric(accelerator, strategy, devices)
# and Fabric checks those arguments against the ones the CLI set.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 3 --rows 2048 > prep.log
fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --launch --devices 3 --steps 300 > console.log 2>&1
rc fabric $?
