#!/bin/bash
# `python ba_train.py --nprocs 4 --log-style tqdm` = torch.multiprocessing.spawn(nprocs=4), DDP over gloo; rank 0
# shows a tqdm bar per epoch (on stderr), every rank prints its epoch summaries; one console (stdout+stderr of the
# spawn parent). A long run (40 epochs); 20 s after the start console.log is copied (snapshot/console.log) while the job
# is still training; the job is then stopped (the stop is not part of the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 4 --rows 1024 > prep.log
setsid python ba_train.py --data data --nprocs 4 --epochs 40 --log-style tqdm --step-sleep 0.05 --pg-timeout 60 > console.log 2>&1 & P=$!
sleep 20; mkdir -p snapshot; cp console.log snapshot/console.log
kill -TERM -- -$P; wait $P; rc python $?
