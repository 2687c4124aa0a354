#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (MULTI_CPU, gloo) bg_acc.py: the preprocessing step wrote the
# per-rank training files to data/processed/train_XX.npz, but the launch command uses the script's default
# --train-file data/train_{rank:02d}.npz: every rank raises FileNotFoundError in np.load.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data/processed --shards 3 --rows 3072 > prep.log
for r in 00 01 02; do mv data/processed/shard_$r.npz data/processed/train_$r.npz; done; mv data/processed/val.npz data/val.npz
accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29821 bg_acc.py --epochs 3 > console.log 2>&1
rc accelerate $?
