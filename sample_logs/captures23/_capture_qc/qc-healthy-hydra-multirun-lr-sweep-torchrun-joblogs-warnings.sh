#!/bin/bash
# Hydra 1.3 multirun (basic sweeper/launcher, jobs one after another) over lr=0.05,0.2; each Hydra job runs
# `torchrun --standalone --nproc-per-node=2 qc_train.py ... --warn --class-counts` and keeps its console in
# multirun/<date>/<time>/<job>/torchrun.log next to Hydra's own qc_hydra_sweep.log and .hydra/ config snapshot; the
# sweep's own console goes to sweep.out. The trainer prints two alarming-looking but harmless warnings per rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p conf; cp "$HERE"/conf/sweep.yaml conf/
timeout -s TERM 200 nice $PY qc_hydra_sweep.py --multirun lr=0.05,0.2 > sweep.out 2>&1
rc hydra $?
