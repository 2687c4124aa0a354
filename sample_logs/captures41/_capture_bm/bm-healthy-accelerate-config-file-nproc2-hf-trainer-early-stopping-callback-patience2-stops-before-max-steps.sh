#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 2 bm_hf.py --early-stopping 2: transformers
# Trainer with EarlyStoppingCallback(patience 2, threshold 0.02 on eval_loss), eval + checkpoint every 20 steps,
# load_best_model_at_end, max_steps 400. Training is expected to end early through the callback. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_textprep.py --out data --vocab 500 > prep.log
cp bm_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
accelerate launch --config_file accelerate_config.yaml --num_processes 2 bm_hf.py --max-steps 400 --eval-steps 20   --lr 1e-3 --early-stopping 2 --early-stopping-threshold 0.02 > console.log 2>&1
rc accelerate $?
