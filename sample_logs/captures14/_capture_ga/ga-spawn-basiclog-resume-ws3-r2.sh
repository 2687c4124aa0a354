#!/bin/bash
# torch.multiprocessing.spawn (ga_train.py --spawn-procs N), env:// rendezvous; logging.basicConfig() defaults on stderr
# (`INFO:ga.train:msg`, the rank only inside the messages). console.log = the resumed 3-process run.
# Planted: a first (not kept) 2-process run saves ckpt/step_6 (model.pt + rng_state_rank{0,1}.pt); the job is then
# resumed from it with 3 processes: rank 2 has no rng_state_rank2.pt.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export MASTER_ADDR=127.0.0.1
MASTER_PORT=29811 timeout -s TERM 90 nice $PY ga_train.py --spawn-procs 2 --steps 6 --sleep 0.1 --pg-timeout 30 \
  --log-style basic --save-dir ckpt/step_6 > prep_run.log 2>&1
rc prep $?
MASTER_PORT=29812 timeout -s TERM 90 nice $PY ga_train.py --spawn-procs 3 --steps 14 --sleep 0.2 --pg-timeout 30 \
  --log-style basic --resume ckpt/step_6 > console.log 2>&1
rc launcher $?
