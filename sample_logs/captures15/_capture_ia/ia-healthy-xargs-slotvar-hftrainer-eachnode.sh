#!/bin/bash
# `xargs -P 2 --process-slot-var=RANK` starts the two ranks (xargs exports the slot number 0/1 as RANK; a one-line sh
# wrapper sets LOCAL_RANK from it); MASTER_ADDR/PORT and WORLD_SIZE exported by this script. Each rank runs ia_hf.py:
# HF Trainer (CPU, gloo DDP) with log_on_each_node=False, log_level=info, log_level_replica=warning; the script's logger
# writes asctime lines to stderr and a RotatingFileHandler logs/hf-rank<R>.log. console.log = xargs' output (both ranks'
# stdout + stderr, unprefixed).
# Alarming but harmless: no dashboard listens on 127.0.0.1:8086, so every metrics push fails with
# ConnectionRefusedError (logged at ERROR with traceback, training continues); transformers' own warnings.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29795 WORLD_SIZE=2 TRANSFORMERS_NO_ADVISORY_WARNINGS=0
printf '0\n1\n' | timeout -s TERM 180 nice xargs -P 2 -n 1 --process-slot-var=RANK \
  sh -c 'LOCAL_RANK=$RANK exec python ia_hf.py --epochs 2 --dashboard 127.0.0.1:8086' sh > console.log 2>&1
rc xargs $?
