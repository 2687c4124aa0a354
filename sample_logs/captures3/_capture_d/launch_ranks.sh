#!/bin/bash
# A hand-rolled launcher: start N ranks in the background, each writing rank$N.out / rank$N.err,
# then wait for all of them.  Usage: launch_ranks.sh N PORT script.py [args...]
N=$1; PORT=$2; shift 2
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT WORLD_SIZE=$N
for ((r = 0; r < N; r++)); do
  RANK=$r LOCAL_RANK=$r nice "$PY" "$@" > rank$r.out 2> rank$r.err &
done
wait
