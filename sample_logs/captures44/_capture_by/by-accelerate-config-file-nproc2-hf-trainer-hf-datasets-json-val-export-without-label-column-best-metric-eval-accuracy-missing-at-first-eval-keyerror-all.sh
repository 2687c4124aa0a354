#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 2 by_hf.py --hf-datasets --best-metric
# eval_accuracy: transformers Trainer on the JSONL corpus loaded with datasets.load_dataset("json") (torchrun
# underneath, gloo on CPU), load_best_model_at_end on eval_accuracy. The val.jsonl was written by the inference
# exporter (no "label" field, by_textprep.py --val-no-label): training runs, and the first evaluation (step 25)
# has no labels, hence no eval_accuracy, and the best-model bookkeeping fails on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_textprep.py --out data --vocab 500 --val-no-label > prep.log
cp by_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cp by_model_config.json model_config.json
export HF_DATASETS_CACHE=$J/.hf_cache/datasets HF_HOME=$J/.hf_cache
accelerate launch --config_file accelerate_config.yaml --num_processes 2 by_hf.py --max-steps 75 --eval-steps 25 --hf-datasets --best-metric eval_accuracy > console.log 2>&1
rc accelerate $?
