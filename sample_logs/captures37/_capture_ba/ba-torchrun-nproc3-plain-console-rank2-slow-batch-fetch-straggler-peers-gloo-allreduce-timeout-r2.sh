#!/bin/bash
# torchrun --standalone --nproc-per-node 3, plain console (no --tee / --log-dir: the workers write straight to the
# agent's terminal). DDP over gloo with a 20 s process-group timeout; the trainer's data-loader watchdog warns when a
# batch is not ready after 5 s. In epoch 1 the fetch of one of rank 2's rows stalls for 60 s (planted: a sleep in the
# dataset's __getitem__, as a slow remote read would), so rank 2 does not reach the step's gradient allreduce; ranks 0
# and 1 time out in it after 20 s and fail; the agent then SIGTERMs rank 2, still waiting for its batch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 3 --rows 512 > prep.log
BA_SLOW_FETCH=2:1:100:60 torchrun --standalone --nproc-per-node 3 ba_train.py --data data --epochs 4 --fetch-watchdog 5 \
  --log-style print --log-every 4 --pg-timeout 20 > console.log 2>&1
rc torchrun $?
