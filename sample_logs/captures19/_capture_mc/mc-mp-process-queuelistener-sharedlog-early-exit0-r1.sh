#!/bin/bash
# `python mc_mp_queue.py 3`: plain multiprocessing.Process launcher (spawn), ranks named rank-0..2, gloo over
# tcp://127.0.0.1:29593; every rank logs through a QueueHandler to the launcher's QueueListener -> one shared
# train.log (processName column); console.log = the launcher's stdout/stderr (multiprocessing prints a rank's uncaught
# exception there as `Process rank-N:` + traceback).
# Planted: rank 1's shard manifest data/manifest-1.json has no part newer than its last trained step (its upstream
# export produced nothing this round); the per-rank "nothing to do" check makes rank 1 call sys.exit(0) after joining
# the process group, while ranks 0 and 2 go on into DDP.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data
echo '{"last_trained_step": 4000, "parts": [{"name": "p-0031", "step": 3900, "rows": 960}, {"name": "p-0032", "step": 4100, "rows": 960}]}' > data/manifest-0.json
echo '{"last_trained_step": 4000, "parts": [{"name": "p-0031", "step": 3900, "rows": 960}]}' > data/manifest-1.json
echo '{"last_trained_step": 4000, "parts": [{"name": "p-0031", "step": 3900, "rows": 960}, {"name": "p-0032", "step": 4100, "rows": 960}]}' > data/manifest-2.json
timeout -s TERM 170 nice $PY mc_mp_queue.py 3 > console.log 2>&1
rc python $?
