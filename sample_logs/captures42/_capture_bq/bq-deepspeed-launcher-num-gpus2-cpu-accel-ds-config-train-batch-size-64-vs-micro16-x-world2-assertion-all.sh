#!/bin/bash
# deepspeed --num_gpus 2 bq_ds.py --deepspeed --deepspeed_config ds_config.json (DS_ACCELERATOR=cpu, gloo, ZeRO 1).
# ds_config.json was copied from a 4-GPU run: train_batch_size 64 with train_micro_batch_size_per_gpu 16 and
# gradient_accumulation_steps 1; with world size 2 the batch arithmetic no longer holds and deepspeed.initialize
# refuses it on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 50}
J
$PY bq_prep.py --out data --shards 2 --rows 2048 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 2 bq_ds.py --steps 150 --rss-budget-mb 1024 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
