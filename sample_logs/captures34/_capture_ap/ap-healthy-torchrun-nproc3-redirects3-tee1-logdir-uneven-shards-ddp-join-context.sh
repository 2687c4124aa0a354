#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --log-dir logs --redirects 3 --tee 1 (per-rank stdout/stderr files, stdout
# also teed to the agent console). Shards are uneven (256 / 200 / 256 rows -> 8 / 7 / 8 batches); the trainer wraps
# each epoch in DDP's model.join() context so the rank that runs out of batches shadows its peers' allreduces.
# Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 3 --rows 256,200,256 > prep.log
torchrun --standalone --nproc-per-node 3 --log-dir logs --redirects 3 --tee 1 ap_train.py --data data --epochs 3 --join --ckpt ckpt --pg-timeout 60 > console.log 2>&1
rc torchrun $?
