#!/bin/bash
# Lightning Trainer(strategy=DDPStrategy(start_method="spawn"), devices=2, accelerator=cpu) started with plain
# python; one console (console.log). A report callback on rank 0 writes results/val_<step>.json after each validation
# (every 100 steps, 600 steps) and points results/latest at it with os.symlink; from the second report on the link
# exists, os.symlink raises FileExistsError, which the callback logs with logger.exception (ERROR + traceback) and then
# replaces the link via rename and logs another ERROR line. Every report is written; fit finishes.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 2 --rows 3200 > prep.log
cat > run.yaml <<'Y'
seed: 5
data: {batch_size: 32}
model: {hidden: 64}
optimizer: {lr: 0.002, weight_decay: 0.01}
schedule: {warmup_steps: 100, decay_steps: 500, min_ratio: 0.05}
trainer: {max_steps: 600, val_check_interval: 100}
Y
$PY bd_pl.py --config run.yaml --devices 2 --strategy ddp_spawn --report-dir results > console.log 2>&1
rc python $?
