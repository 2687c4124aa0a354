#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 2 bq_hf.py --max-steps 90 --eval-steps 30
# --save-steps 30: transformers Trainer (use_cpu, gloo) on a small random-init BERT classifier, checkpoint every 30
# steps, final evaluate + save_model. No fault planted: this run (the first try of the healthy job) ended with rank 1
# aborting at interpreter exit after both ranks had logged "done".
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bq_textprep.py --out data --vocab 500 > prep.log
cp bq_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
accelerate launch --config_file accelerate_config.yaml --num_processes 2 bq_hf.py --max-steps 90 --eval-steps 30 --save-steps 30 --lr 1e-3 > console.log 2>&1
rc accelerate $?
