#!/bin/bash
# accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29631 --mixed_precision no
# --dynamo_backend no (flags only, CPU host, gloo) running an HF Trainer (mc_hf_eval.py, report_to="none",
# eval_strategy="steps" every 20 steps); console.log = launcher + both processes (stdout and stderr).
# Planted: record 25 of data/eval.jsonl (re-exported from a newer labelling that added a 5th class) carries label 4;
# the model has 4 outputs. Training is unaffected; the first in-loop evaluation hits it on the process whose eval
# shard holds that record.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY mc_make_text_jsonl.py data --bad-eval-label 25:4 > prep.txt
timeout -s TERM 170 nice $V/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29631 \
  --mixed_precision no --dynamo_backend no mc_hf_eval.py > console.log 2>&1
rc accelerate $?
