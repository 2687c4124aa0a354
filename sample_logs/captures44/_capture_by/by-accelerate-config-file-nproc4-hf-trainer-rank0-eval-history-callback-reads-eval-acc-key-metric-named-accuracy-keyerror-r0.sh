#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 4 by_hf.py --callbacks throughput,metrics-file:
# transformers Trainer (torchrun underneath, gloo on CPU) with two callbacks. The eval-history callback (runs on the
# world process zero only) reads metrics["eval_acc"], but compute_metrics reports "accuracy" (-> "eval_accuracy"):
# the first evaluation (step 20) raises on rank 0 only.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_textprep.py --out data --vocab 500 > prep.log
cp by_accelerate_multigpu_cpu.yaml accelerate_config.yaml
cp by_model_config.json model_config.json
accelerate launch --config_file accelerate_config.yaml --num_processes 4 by_hf.py --max-steps 60 --eval-steps 20 --batch-size 8 --callbacks throughput,metrics-file > console.log 2>&1
rc accelerate $?
