#!/bin/bash
# torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs bx_train.py --lr-schedule warmup
# --nonfinite-guard: 8 ranks, DDP over gloo, JSON-lines logs (stdout, into the per-rank files). The exponential warmup
# was written as LambdaLR(lambda s: 0.01 ** (1 - s / w)) without clamping the exponent at 0 (intended
# 0.01 ** max(0, 1 - s / w): 1% -> 100% of the base lr over 20 steps, then hold): after step 20 the factor keeps
# growing x100 every 20 steps. The weights (identical on every rank) blow up and the loss guard raises
# FloatingPointError ("non-finite loss") on the ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 8 --rows 256 > prep.log
torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs bx_train.py --data data --log-format json \
  --lr 0.1 --lr-schedule warmup --warmup-steps 20 --nonfinite-guard --epochs 50 --log-every 4 --pg-timeout 30 > console.log 2>&1
rc torchrun $?
