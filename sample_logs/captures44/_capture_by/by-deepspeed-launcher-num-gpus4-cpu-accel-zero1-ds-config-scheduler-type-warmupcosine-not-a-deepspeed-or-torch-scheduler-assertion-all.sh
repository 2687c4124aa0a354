#!/bin/bash
# deepspeed --num_gpus 4 by_ds.py --deepspeed --deepspeed_config ds_config.json (DS_ACCELERATOR=cpu, gloo, ZeRO 1,
# 4 ranks). ds_config.json names the LR scheduler "WarmupCosine" (DeepSpeed's class is WarmupCosineLR, and
# torch.optim.lr_scheduler has no such name either): deepspeed.initialize refuses it on every rank.
BY_VENV=/home/user/capBI/venv
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "weight_decay": 0.01}},
 "scheduler": {"type": "WarmupCosine", "params": {"total_num_steps": 150, "warmup_num_steps": 15}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 50}
J
$PY by_prep.py --out data --shards 4 --rows 1024 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 4 by_ds.py --steps 150 --rss-budget-mb 1024 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
