#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --max-restarts 1, console tee'd into console.log, each rank also appends
# host-format records to logs/rank<R>.log (dictConfig FileHandler, mode a, so both attempts land in one file).
# Checkpoints every 50 steps into ckpt/ = a 1 MiB tmpfs that still holds a stale 1020 KiB file from an earlier job;
# the site's tmp reaper (tmpreaper.sh, log tmpreaper.log) removes files older than its cutoff 15 s after the start.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY pc_make_data.py data 2 3000
mkdir -p logs ckpt; mount -t tmpfs -o size=1m tmpfs ckpt
dd if=/dev/zero of=ckpt/old-run-7f3a.pt bs=1k count=1020 2>/dev/null
( sleep 15; echo "$(date '+%F %T') tmpreaper: scanning $J/ckpt (cutoff 1h)"
  for f in ckpt/old-run-*; do rm -v "$f"; done; echo "$(date '+%F %T') tmpreaper: done" ) > tmpreaper.log 2>&1 &
timeout -s TERM 120 nice torchrun --standalone --nproc-per-node 2 --max-restarts 1 pc_train.py --data data --steps 250 \
  --sleep 0.05 --ckpt-dir ckpt --ckpt-every 50 --fmt host --logfile 'logs/rank{rank}.log' 2>&1 | tee console.log > /dev/null
rc torchrun ${PIPESTATUS[0]}
wait; umount ckpt
