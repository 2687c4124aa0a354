#!/bin/bash
# torchrun --standalone --nnodes=1:2 --nproc-per-node 2 (elastic min:max with the standalone c10d store), workers log
# through logging.handlers.RotatingFileHandler into logs/rank-R.log (maxBytes 2048, backupCount 3: rotated files
# rank-R.log.1, .2, ...), only WARNING+ also on stderr; console.log = torchrun agent + workers' stderr.
# Rank 0 saves ckpt/step-N.pt every 4 steps (weights + AdamW state).
# Planted: ckpt/ is a 512 KiB tmpfs (a small scratch quota) mounted in the job's mount namespace: the third
# checkpoint does not fit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt && mount -t tmpfs -o size=512k tmpfs ckpt
LOGLEVEL=INFO timeout -s TERM 150 nice $TR --standalone --nnodes=1:2 --nproc-per-node 2 kc_train.py \
  --log-style rotating --hidden 128 --steps 20 --ckpt-dir ckpt --ckpt-every 4 --pg-timeout 30 > console.log 2>&1
rc torchrun $?
df -k ckpt > df_ckpt.txt; ls -l ckpt >> df_ckpt.txt
