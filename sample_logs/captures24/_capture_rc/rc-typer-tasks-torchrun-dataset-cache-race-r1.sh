#!/bin/bash
# Project task runner `python tasks.py` (typer): `prepare` then `train` (torchrun --standalone, 3 procs); the runner's
# `[tasks] $ ...` echo lines and torchrun's console go to tasks.log. The trainer's dataset cache (cache/vocab.pt) is
# built by rank 0 in place (no temp file + rename), in 256 KiB writes; the other ranks load it as soon as the file exists.
. "$(dirname "$(readlink -f "$0")")/common.sh"
{ $PY tasks.py prepare && timeout -s TERM 150 nice $PY tasks.py train --nproc 3 --rows 800 --cache cache/vocab.pt --pg-timeout 60; } > tasks.log 2>&1
rc tasks $?
