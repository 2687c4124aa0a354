#!/bin/bash
# accelerate launch --multi_gpu --num_processes 2 (no GPU: MULTI_CPU + gloo) run as a batch job step under
# at_sbatch_wrap.sh (`timeout -s TERM --kill-after 30 <limit>`: the job's wall-clock limit), stdout+stderr to the
# job's output file slurm-70412.out. The script saves full accelerate state (model + AdamW state ~200 MB, plus a 4 GB hard-negative feature bank registered for checkpointing) every 4
# steps; the wall-clock limit (35 s) expires while a save is being written: SIGTERM to the launcher, which forwards it
# to the workers. Nothing in the job is at fault: the limit was too short for the run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 2 --rows 256 > prep.log
TIME_LIMIT=35 KILL_WAIT=30 ./at_sbatch_wrap.sh accelerate launch --multi_gpu --num_processes 2 --num_machines 1 \
  --mixed_precision no --dynamo_backend no --main_process_port 29771 at_acc.py --data data --epochs 4 --width 4096 --bank-mb 4096 \
  --save-every 4 --output-dir out > slurm-70412.out 2>&1
rc job $?
