#!/bin/bash
# Lightning 2.6 Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy(gloo, timeout 30 s)) started with plain
# `python qc_pl_eval.py` (Lightning's own subprocess launcher re-runs the script for local ranks 1, 2); console in
# train.out. Validation data is read per rank from per-rank split files (600, 600, 587 rows: rank 2's file is short);
# the validation epoch end all_gathers each rank's prediction tensor.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $PY qc_pl_eval.py > train.out 2>&1
rc python $?
