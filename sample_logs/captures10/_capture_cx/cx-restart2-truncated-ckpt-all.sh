#!/bin/bash
# torchrun x2 --max-restarts 2, c10d rendezvous on 127.0.0.1, --log-dir logs --redirects 3 (no tee):
# launcher.log (agent only) + logs/<run>/attempt_{0,1,2}/<lr>/{stdout,stderr}.log. Workers print progress.
# Planted: the job resumes from ckpt/step_0006.pt, written by a previous run (step 6, complete) and then
# truncated to 1500 bytes (a copy interrupted mid-write): every rank fails in torch.load on every attempt.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt
$PY - <<'PY'
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
torch.save({"model": m.state_dict(), "step": 6}, "ckpt/step_0006.pt")
PY
truncate -s 1500 ckpt/step_0006.pt
nice $TR --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29941 --max-restarts 2 \
  --log-dir logs --redirects 3 cx_train.py --log-style print --steps 12 --pg-timeout 30 --attempt-store \
  --resume ckpt/step_0006.pt > launcher.log 2>&1
rc launcher $?
