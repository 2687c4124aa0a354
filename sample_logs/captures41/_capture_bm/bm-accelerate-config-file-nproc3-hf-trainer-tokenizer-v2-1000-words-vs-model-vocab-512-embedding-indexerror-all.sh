#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml (MULTI_GPU type on a CPU box -> torchrun underneath, gloo),
# 3 processes, bm_hf.py: transformers Trainer on a small random-init BERT classifier (model_config.json: vocab_size 512).
# The tokenizer/ directory was refreshed to the v2 word-level tokenizer (1000 entries) while model_config.json still
# has vocab_size 512: token ids >= 512 reach the embedding on every rank at the first training step.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_textprep.py --out data --vocab 1000 > prep.log
cp bm_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
accelerate launch --config_file accelerate_config.yaml bm_hf.py --max-steps 60 --eval-steps 20 > console.log 2>&1
rc accelerate $?
