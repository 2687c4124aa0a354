#!/bin/bash
# torchrun --standalone --nproc-per-node 2, console.log = agent + workers. Logging format carries only the process
# id (`%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s`, no rank field). DataLoader with 2 worker
# processes per rank decoding raw records through ctypes (--fast-decode); PYTHONWARNINGS=always (left on from a
# debugging session) prints torch's copy-construct UserWarning (torch.tensor of a tensor) for every decoded record.
# Planted: record 150 of rank 1's raw records has a corrupt length header (0x7fff0000 instead of 96): the ctypes
# memmove in the DataLoader worker reads/writes far past its buffers and the worker dies with SIGSEGV.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY lc_make_data.py data 2 --n 400 --raw --bad-len 1:150 > prep.txt
export PYTHONWARNINGS=always LOGLEVEL=INFO
timeout -s TERM 150 nice $TR --standalone --nproc-per-node 2 lc_train.py --data-dir data --fast-decode --num-workers 2 \
  --log-style pid --steps 12 --pg-timeout 30 > console.log 2>&1
rc torchrun $?
