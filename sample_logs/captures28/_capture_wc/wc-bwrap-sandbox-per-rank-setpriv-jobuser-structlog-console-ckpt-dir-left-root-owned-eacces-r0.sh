#!/bin/bash
# bubblewrap sandbox per rank (wc_bwrap_launch.sh), ranks dropped to the job user 1000:1000 with setpriv, logging
# through structlog's ConsoleRenderer (stdlib records via ProcessorFormatter). The stage-in step runs as root and
# creates the checkpoint directory ckpt/ (root:root 0755) instead of leaving it to the job user; rank 0's first
# checkpoint save (step 20) is refused. Process-group timeout 20 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
chmod 0755 "$J"; mkdir -p ckpt            # stage-in, as root
timeout -s TERM 120 nice ./wc_bwrap_launch.sh 3 29912 1000:1000 -- $PY wc_train.py --structlog --epochs 2 \
  --ckpt-every 20 --ckpt-dir ckpt --pg-timeout 20 > launch.out 2>&1
rc launcher $?
