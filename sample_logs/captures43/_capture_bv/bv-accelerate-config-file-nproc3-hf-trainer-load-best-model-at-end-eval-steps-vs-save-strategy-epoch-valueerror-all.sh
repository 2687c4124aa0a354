#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 3 bv_hf.py (torchrun underneath, gloo):
# transformers Trainer asked for load_best_model_at_end (--load-best) with eval every 25 steps but --save-strategy
# epoch; TrainingArguments refuses the mismatched strategies on every rank before training.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_textprep.py --out data --vocab 500 > prep.log
cp bv_accelerate_multigpu_cpu.yaml accelerate_config.yaml; cp bv_model_config.json model_config.json
accelerate launch --config_file accelerate_config.yaml --num_processes 3 bv_hf.py --max-steps 100 --eval-steps 25 \
  --save-strategy epoch --load-best > console.log 2>&1
rc accelerate $?
