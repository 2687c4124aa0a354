#!/bin/bash
# Hydra app (lc_hydra.py, conf/config.yaml) started by torchrun --standalone --nproc-per-node 2; Hydra's run dir is
# per rank (outputs/run/rank<R>/, hydra.job.chdir) so each rank writes Hydra's job log outputs/run/rank<R>/lc_hydra.log
# ([time][logger][LEVEL] - msg) besides the console; console.log = torchrun agent + both ranks' Hydra console lines.
# Planted: conf/config.yaml (read by every rank) says model.num_classes: 5 while the data has label_classes: 6
# (the head was shrunk when a class was merged upstream, the data config was not).
. "$(dirname "$(readlink -f "$0")")/common.sh"
LOGLEVEL=INFO timeout -s TERM 150 nice $TR --standalone --nproc-per-node 2 lc_hydra.py > console.log 2>&1
rc torchrun $?
