#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bi_hf.py: transformers Trainer (use_cpu, gloo) on a
# tiny random-init BERT classifier, 90 steps, evaluation every 30 steps, a final evaluate() + save_model. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_tokprep.py --out data --shards 2 --rows 1600 > prep.log
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bi_hf.py --max-steps 90 --eval-steps 30 > console.log 2>&1
rc torchrun $?
