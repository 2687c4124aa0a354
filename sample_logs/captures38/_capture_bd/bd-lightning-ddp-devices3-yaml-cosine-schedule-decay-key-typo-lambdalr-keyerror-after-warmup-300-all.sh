#!/bin/bash
# Lightning Trainer(strategy=DDPStrategy, devices=3, accelerator=cpu) started with plain `python bd_pl.py --config
# run.yaml` (Lightning's own launcher re-runs the script for ranks 1 and 2; one combined console). The LR schedule is
# a LambdaLR with linear warmup then cosine decay, read from run.yaml's `schedule:` block. The YAML was edited from an
# older recipe and names the decay length `decay_step:` while the code reads `decay_steps`: warmup (300 steps) runs
# fine, and at step 300 the lambda's first post-warmup call raises KeyError: 'decay_steps' on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 3 --rows 4096 > prep.log
cat > run.yaml <<'Y'
seed: 17
data: {batch_size: 32}
model: {hidden: 64}
optimizer: {lr: 0.002, weight_decay: 0.01}
schedule:
  warmup_steps: 300
  decay_step: 500
  min_ratio: 0.05
trainer: {max_steps: 800, val_check_interval: 100}
Y
$PY bd_pl.py --config run.yaml --devices 3 > console.log 2>&1
rc python $?
