#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --log-dir ranklogs --save-every 100
# (Python logging into per-rank files ranklogs/rankN.log as well as stdout, which torchrun redirects into logs/).
# Rank 0 saves a checkpoint every 100 steps holding a RunState object; RunState keeps a reference to the rank's
# logging FileHandler, so the first torch.save at step 100 fails to pickle it on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 2048 > prep.log
torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --log-dir ranklogs \
  --save-every 100 --steps 400 --log-every 25 --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1
rc torchrun $?
