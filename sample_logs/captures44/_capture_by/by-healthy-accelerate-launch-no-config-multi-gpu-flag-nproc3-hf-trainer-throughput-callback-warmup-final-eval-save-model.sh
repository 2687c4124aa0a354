#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (no config file: accelerate fills the defaults and warns about them;
# torchrun underneath, gloo on CPU) by_hf.py: transformers Trainer on the JSONL corpus with a throughput-logging
# callback, 10 warmup steps, eval every 30 steps, final evaluate + save_model. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_textprep.py --out data --vocab 500 > prep.log
cp by_model_config.json model_config.json
accelerate launch --multi_gpu --num_processes 3 by_hf.py --max-steps 60 --eval-steps 30 --warmup-steps 10 --callbacks throughput > console.log 2>&1
rc accelerate $?
