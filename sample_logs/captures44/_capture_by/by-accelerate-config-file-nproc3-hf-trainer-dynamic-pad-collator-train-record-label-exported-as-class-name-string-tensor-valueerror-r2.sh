#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml (MULTI_GPU yaml, 3 processes, torchrun underneath, gloo on
# CPU) by_hf.py --dynamic-pad: transformers Trainer with DataCollatorWithPadding (per-batch padding). One train record
# (train-00500) had its label exported as the class name "sports" instead of the class id (by_textprep.py
# --str-label 500:sports); the rank whose batch holds it fails in the collator's tensor conversion.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_textprep.py --out data --vocab 500 --str-label 500:sports > prep.log
cp by_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cp by_model_config.json model_config.json
accelerate launch --config_file accelerate_config.yaml by_hf.py --max-steps 60 --eval-steps 30 --dynamic-pad > console.log 2>&1
rc accelerate $?
