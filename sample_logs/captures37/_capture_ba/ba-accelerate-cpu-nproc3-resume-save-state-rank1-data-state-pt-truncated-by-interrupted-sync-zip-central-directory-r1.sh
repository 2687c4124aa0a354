#!/bin/bash
# accelerate launch --multi_gpu --num_processes 3 (MULTI_CPU, gloo), one console. A first run (3 epochs, not captured)
# writes runs/exp/checkpoint-epoch{N} with accelerator.save_state() plus each rank's own data_state_<rank>.pt (data
# order and epoch). The checkpoint tree is then synced to another dir (runs/exp-sync) and the sync of
# data_state_1.pt was interrupted: the file is cut to its first 700 bytes. The captured resume run
# (--resume-from runs/exp-sync/checkpoint-epoch1, 5 epochs) fails on rank 1 in torch.load of its truncated file
# ("failed finding central directory"); the agent SIGTERMs ranks 0 and 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 3 --rows 320 > prep.log
ACC="accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29641"
$ACC ba_acc.py --data data --epochs 3 > first_run.log 2>&1
cp -r runs/exp runs/exp-sync
head -c 700 runs/exp/checkpoint-epoch1/data_state_1.pt > runs/exp-sync/checkpoint-epoch1/data_state_1.pt
$ACC ba_acc.py --data data --epochs 5 --output-dir runs/exp-sync --resume-from runs/exp-sync/checkpoint-epoch1 > console.log 2>&1
rc accelerate $?
