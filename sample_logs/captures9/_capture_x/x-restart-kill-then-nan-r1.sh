#!/bin/bash
# torchrun x3, c10d rendezvous, --max-restarts 1, --log-dir logs --redirects 3 (no tee: launcher.log holds the
# agent only). Per-rank checkpoints every 3 steps (ckpt/rank{R}.pt), resume from them; process group over
# PrefixStore('attempt-<restart>') so attempt 1 forms a fresh gloo mesh.
# attempt 0: rank 0's worker is SIGKILLed from outside once it logs step 7 (an OOM-killer-like kill; nothing
# printed by the worker) -> torchrun restarts the group; attempt 1 resumes at step 7 and rank 1's batch at
# step 11 holds an inf -> FloatingPointError('non-finite loss') on rank 1, the job fails.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29914 --max-restarts 1 \
  --log-dir logs --redirects 3 x_train.py --steps 14 --sleep 0.4 --pg-timeout 30 --attempt-store \
  --ckpt-dir ckpt --ckpt-every 3 --fault nan --fault-rank 1 --fault-step 11 > launcher.log 2>&1 &
L=$!
for i in $(seq 1 300); do
  f=$(ls logs/*/attempt_0/0/stderr.log 2>/dev/null | head -1)
  if [ -n "$f" ] && grep -q 'step 7/14' "$f"; then
    pid=$(grep -o 'starting: .*pid=[0-9]*' "$f" | sed 's/.*pid=//'); kill -KILL "$pid"; echo "killed rank 0 pid $pid"; break
  fi
  sleep 0.2
done
wait $L; rc launcher $?
