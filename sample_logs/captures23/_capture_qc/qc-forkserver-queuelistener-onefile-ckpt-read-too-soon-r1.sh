#!/bin/bash
# torch.multiprocessing.start_processes(start_method="forkserver"), 3 ranks; one combined train.log written by the
# parent's logging QueueListener (records from every rank through a QueueHandler); the launcher's own traceback on
# stderr goes to launcher.err. Every 40 steps rank 0 torch.save()s a ~40 MB checkpoint straight to ckpt/last.pt (no
# tmp + rename) and rank 1, the "eval worker", loads ckpt/last.pt as soon as the file exists (no barrier).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt
timeout -s TERM 150 nice $PY qc_forkserver_ql.py 3 --rows 3000 --epochs 1 --ckpt ckpt/last.pt --ckpt-every 40 \
  --eval-from-ckpt 1 --pg-timeout 30 > launcher.out 2> launcher.err
rc launcher $?
