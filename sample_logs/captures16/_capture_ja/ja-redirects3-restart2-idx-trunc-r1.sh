#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --max-restarts 2 --log-dir logs --redirects 3 (workers' stdout+stderr only
# in logs/<run_id>/attempt_<N>/<R>/{stdout,stderr}.log; console.log = the agent only). asctime logging on stderr.
# Data: Megatron-style indexed shards data/shard-<RR>.{bin,idx} (np.memmap of the int64 offsets).
# Planted: data/shard-01.idx is 5 bytes short (an interrupted copy): every attempt fails the same way on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_shards.py 2 --truncate-rank 1 --truncate-bytes 5
LOGLEVEL=INFO timeout -s TERM 150 nice $TR --standalone --nproc-per-node 2 --max-restarts 2 --log-dir logs --redirects 3 \
  ja_train.py --data shards --steps 10 --pg-timeout 20 > console.log 2>&1
rc torchrun $?
