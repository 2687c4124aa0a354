#!/bin/bash
source "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data && python ag_mkdata.py data/train.jsonl 1600 1
python ag_pl.py --strategy ddp_spawn --devices 2 --epochs 12 --early-stop --csv --workers 1 > console.log 2>&1
rc python $?
