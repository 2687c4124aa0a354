#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bg_train.py --style print (all ranks print), DDP over
# gloo. Each sample carries a sequence length (data: 'len'); before each step the trainer's own memory guard
# estimates the attention-score memory (batch x len^2 x 4 heads x fp32) of the longest sample in the batch against
# an 8 GiB per-device budget and raises a CUDA-style out-of-memory RuntimeError when it would not fit (the same
# code runs on the GPU cluster). Rank 2's shard holds one 6144-token document (row 815; every other row is
# 64-512 tokens): the batch that contains it needs ~18 GiB and rank 2 raises.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 4 --rows 4096 > prep.log
$PY - <<'PY'
import numpy as np
rng = np.random.default_rng(5)
for r in range(4):
    d = np.load(f"data/shard_{r:02d}.npz"); ln = rng.integers(64, 513, len(d["y"]))
    if r == 2:
        ln[815] = 6144
    np.savez(f"data/shard_{r:02d}.npz", x=d["x"], y=d["y"], len=ln)
PY
torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bg_train.py --style print --data data --steps 400 \
  --mem-budget-gib 8 --log-every 25 --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1
rc torchrun $?
