#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bm_hf.py: transformers Trainer, tiny BERT.
# The train/val JSONL were re-exported by the new data pipeline, which writes the class under "category" instead of
# "label": the Dataset passes a label through only when the record has one, so no "labels" reach the model and the
# Trainer finds no loss at the first step on both ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_textprep.py --out data --vocab 500 --label-key category > prep.log
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
torchrun --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bm_hf.py --max-steps 60 --eval-steps 20 > console.log 2>&1
rc torchrun $?
