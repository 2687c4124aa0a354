#!/bin/bash
# deepspeed --num_gpus 2 bv_ds.py --save-every 50 --ckpt-dir /home/user/project/checkpoints (DS_ACCELERATOR=cpu, gloo,
# ZeRO 1): checkpoints go to a scratch volume that is a 6 MiB tmpfs (mounted over checkpoints/ in this job's private
# mount namespace); the step-50 checkpoint fits, the step-100 one runs out of space while being written.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 50}
J
$PY bv_prep.py --out data --shards 2 --rows 2048 > prep.log
mkdir -p checkpoints; mount -t tmpfs -o size=6m scratch-ckpt checkpoints
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 2 bv_ds.py --steps 200 --save-every 50 --hidden 256 --ckpt-dir checkpoints --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
ls -laR checkpoints > ckpt_listing.txt; df -k checkpoints >> ckpt_listing.txt
