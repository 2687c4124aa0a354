#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --redirects 1 --log-dir logs bp_train.py --config train.yaml: every rank
# reads the YAML run config at start. The 'train:' block's "lr" line was indented with a tab (edited in a different
# editor): yaml.safe_load raises a ScannerError on both ranks before the process group exists.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 2 --rows 512 > prep.log
printf 'run_name: mlp-baseline\ndata: data\ntrain:\n  epochs: 3\n  batch_size: 32\n\tlr: 0.05\n  hidden: 64\n' > train.yaml
torchrun --standalone --nproc-per-node 2 --redirects 1 --log-dir logs bp_train.py --config train.yaml --data data > console.log 2>&1
rc torchrun $?
