#!/bin/bash
# `python nc_spawn_rotating.py 3` (torch.multiprocessing.spawn, 3 ranks, gloo); each rank logs to its own
# RotatingFileHandler file logs/rank<R>.log (maxBytes 2500, backupCount 3 -> rank<R>.log.1 ... .3 after rotation);
# console.log = the launcher's stdout/stderr (WARNING+ records of the ranks, spawn's traceback).
# Planted: rank 1's feature shard has one +inf value (row 1390, col 3) from the export, so its loss goes inf/NaN at
# step 43 (batch rows 1376-1407); the rank's loss guard raises FloatingPointError.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY nc_make_feats.py data 3 1:1390 > prep.txt
timeout -s TERM 150 nice $PY nc_spawn_rotating.py 3 > console.log 2>&1
rc spawn $?
