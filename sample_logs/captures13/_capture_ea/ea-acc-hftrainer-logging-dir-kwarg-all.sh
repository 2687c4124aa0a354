#!/bin/bash
# accelerate launch --config_file acc_cpu.yaml (2 processes, static rdzv on 127.0.0.1) running transformers.Trainer
# on CPU (ea_hf.py); console.log = the launcher's console; each process also logs to runs/ea-hf/process_<R>.log.
# Planted: the training script still passes `logging_dir=` to TrainingArguments, as it did under transformers 4.x;
# the installed transformers 5.25.0 no longer has that argument.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/acc_cpu.yaml" .
$PY ea_hf.py --make-model tiny-cls > prep.out 2>&1
timeout -s TERM 100 nice $V/accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 40 \
  --logging-dir runs/ea-hf --legacy-logging-dir > console.log 2>&1
rc launcher $?
