#!/bin/bash
# timeout 45 torchrun --standalone --nproc-per-node 3 --max-restarts 2 --tee 3 --log-dir logs bu_train.py --style tqdm
# --epochs 200 --step-sleep 0.03: the job wrapper's time limit (coreutils timeout, 45 s) expires while training is
# ~1/3 through; timeout SIGTERMs its process group (torchrun agent and workers). max_restarts does not apply to a
# signal received by the agent.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out data --shards 3 --rows 512 > prep.log
timeout 45 torchrun --standalone --nproc-per-node 3 --max-restarts 2 --tee 3 --log-dir logs bu_train.py --data data --style tqdm --epochs 200 --step-sleep 0.03 --ckpt-dir ckpt --eval > console.log 2>&1
rc torchrun $?
