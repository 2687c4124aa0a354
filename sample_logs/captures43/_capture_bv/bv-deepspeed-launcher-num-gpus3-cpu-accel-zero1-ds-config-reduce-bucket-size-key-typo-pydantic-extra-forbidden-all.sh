#!/bin/bash
# deepspeed --num_gpus 3 bv_ds.py --deepspeed --deepspeed_config ds_config.json (DS_ACCELERATOR=cpu, gloo, ZeRO 1).
# The ZeRO block of the hand-edited ds_config.json has a misspelt key ("reduce_bucket_szie"); DeepSpeed's config
# model forbids unknown keys, so deepspeed.initialize fails with a pydantic ValidationError on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "weight_decay": 0.01}},
 "zero_optimization": {"stage": 1, "overlap_comm": false, "contiguous_gradients": true,
                       "reduce_bucket_szie": 50000000, "allgather_bucket_size": 50000000},
 "steps_per_print": 50, "wall_clock_breakdown": false}
J
$PY bv_prep.py --out data --shards 3 --rows 2048 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 3 bv_ds.py --steps 150 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
