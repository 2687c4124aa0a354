#!/bin/bash
# torchrun --standalone --nproc-per-node 2 bi_hf.py: transformers Trainer (use_cpu, ddp_backend gloo) on a tiny
# random-init BERT classifier built from model_config.json, eval every 30 steps with a compute_metrics that does
# eval_pred.predictions.argmax(-1). The model_config.json copied from an analysis notebook has
# "output_hidden_states": true, so the model returns (logits, hidden_states) and the Trainer hands compute_metrics a
# tuple at the first evaluation (step 30) on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_tokprep.py --out data --shards 2 --rows 1600 > prep.log
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4, "output_hidden_states": true}
J
torchrun --standalone --nproc-per-node 2 bi_hf.py --max-steps 90 --eval-steps 30 > console.log 2>&1
rc torchrun $?
