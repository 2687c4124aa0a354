#!/bin/bash
# accelerate launch --config_file acc_cpu.yaml (2 processes) running transformers.Trainer on CPU (ea_hf.py);
# console.log = the launcher's console; each process also logs to runs/ea-hf/process_<R>.log.
# Nothing wrong: FutureWarning, a padding WARNING, DDP's find_unused_parameters warning, and a metrics push that
# fails once (ERROR with a ConnectionRefusedError traceback) and is retried.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/acc_cpu.yaml" .
$PY ea_hf.py --make-model tiny-cls > prep.out 2>&1
timeout -s TERM 100 nice $V/accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 60 \
  --logging-steps 10 --logging-dir runs/ea-hf --flaky-callback --warn > console.log 2>&1
rc launcher $?
