#!/bin/bash
# accelerate launch --config_file acc_cpu.yaml (2 processes) running transformers.Trainer on CPU (ea_hf.py) for
# 4000 steps, started in its own session (setsid) like a foreground job in a terminal; console.log = the launcher's
# console; each process also logs to runs/ea-hf/process_<R>.log.
# External: 30 s after the start an operator presses Ctrl-C: SIGINT to the job's whole process group.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/acc_cpu.yaml" .
$PY ea_hf.py --make-model tiny-cls > prep.out 2>&1
setsid nice $V/accelerate launch --config_file acc_cpu.yaml ea_hf.py --model-dir tiny-cls --steps 4000 \
  --logging-steps 50 --logging-dir runs/ea-hf > console.log 2>&1 &
L=$!
sleep 30; kill -INT -- -$L; echo "SIGINT to process group $L"
( sleep 40; pgrep -g $L > /dev/null && { echo "still running, SIGKILL"; kill -KILL -- -$L; } ) &
wait $L; rc launcher $?
sleep 2; pgrep -g $L && echo "LEFT OVER processes in group $L"
