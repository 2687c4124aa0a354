#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 (per-rank stdout/stderr files + teed console).
# The model's hidden block runs under torch.utils.checkpoint (use_reentrant=False) and uses a custom autograd
# Function (PairSiLU) whose backward processes rows two at a time with grad.view(-1, 2, h). Shards 0/1 have 256
# rows (8 full batches of 32); shard 2 has 253 rows -> its last batch has 29 rows -> the view fails in rank 2's
# backward at step 7 of epoch 0; the agent then stops ranks 0 and 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 3 --rows 256,256,253 > prep.log
torchrun --standalone --nproc-per-node 3 --log-dir logs --tee 3 ap_train.py --data data --epochs 2 --act-ckpt --pg-timeout 60 > console.log 2>&1
rc torchrun $?
