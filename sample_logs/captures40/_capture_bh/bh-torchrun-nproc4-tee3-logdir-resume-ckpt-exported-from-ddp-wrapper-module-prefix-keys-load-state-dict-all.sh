#!/bin/bash
# Earlier run (earlier_run.log): `torchrun --standalone --nproc-per-node 1 bh_train.py --steps 60 --save-wrapped
# --save ckpt/last.pt`: that exporter saved the DDP wrapper's state_dict (keys "module.body..."). The job:
# torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bh_train.py --resume ckpt/last.pt: every rank's
# load_state_dict into the bare model raises (missing body.* keys, unexpected module.body.* keys).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 4 --rows 2048 > prep.log
mkdir -p ckpt
torchrun --standalone --nproc-per-node 1 bh_train.py --data data --steps 60 --log-every 20 --save-wrapped \
  --save ckpt/last.pt > earlier_run.log 2>&1
torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bh_train.py --data data --resume ckpt/last.pt \
  --steps 400 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
