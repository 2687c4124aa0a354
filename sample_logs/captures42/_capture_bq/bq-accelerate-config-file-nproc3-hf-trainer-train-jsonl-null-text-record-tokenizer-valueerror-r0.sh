#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml bq_hf.py (3 processes, torchrun underneath, gloo):
# transformers Trainer on the JSONL corpus. The train export holds one record whose "text" is null (planted with
# bq_textprep.py --null-text 700); the rank whose batch contains it (rank 0 in this run) fails in the dataset's tokenizer call.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bq_textprep.py --out data --vocab 500 --null-text 700 > prep.log
cp bq_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
accelerate launch --config_file accelerate_config.yaml bq_hf.py --max-steps 60 --eval-steps 30 > console.log 2>&1
rc accelerate $?
