#!/bin/bash
# deepspeed --num_gpus 3 bq_ds.py --deepspeed --deepspeed_config ds_config.json (DS_ACCELERATOR=cpu, gloo, ZeRO 1).
# Rank 1's shard was re-exported with float64 features (bq_prep.py --f64-shard 1); bq_ds.py takes the arrays as
# stored, so rank 1's first forward hits the float32 Linear with a float64 batch.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 50}
J
$PY bq_prep.py --out data --shards 3 --rows 2048 --f64-shard 1 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 3 bq_ds.py --steps 150 --rss-budget-mb 1024 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
