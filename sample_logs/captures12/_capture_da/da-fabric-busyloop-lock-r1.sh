#!/bin/bash
# Lightning Fabric: `python da_fabric.py` with Fabric(accelerator="cpu", devices=2, strategy=DDPStrategy(gloo,
# timeout=30 s)); fabric.launch() starts rank 1 as a re-run of the script. One console.log (both ranks' stderr).
# Planted: at step 5 rank 1 'refreshes its feature cache' and spins on a lock file that nobody ever removes (a busy
# loop at 100% CPU, no sleep, no timeout); rank 0 waits in the next collective.
# (unshare -p -f: when rank 0 exits, the PID namespace ends and takes the orphaned busy rank 1 with it.)
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p cache; echo "pid 4121 host trn-07" > cache/shard-00001.lock
unshare -p -f timeout -s TERM 90 nice $PY da_fabric.py --steps 12 --pg-timeout 30 --fault busy_lock --fault-rank 1 --fault-step 5 > console.log 2>&1
rc launcher $?
