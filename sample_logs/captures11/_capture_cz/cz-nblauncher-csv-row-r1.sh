#!/bin/bash
# accelerate.notebook_launcher(main, num_processes=2) from a plain script on CPU (Accelerator(cpu=True)),
# one console.log ('[asctime] {file:line} LEVEL - [rank R] msg' lines).
# Planted: rank 1's CSV shard data/part-1.csv has row 53 written with ';' between two features (a locale
# export), so one field reads '0.4121;-1.0337'.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_csv.py 2 96 1 53
timeout -s TERM 60 nice $PY cz_acc.py --mode notebook --nproc 2 --data csv --steps 12 > console.log 2>&1
rc python $?
