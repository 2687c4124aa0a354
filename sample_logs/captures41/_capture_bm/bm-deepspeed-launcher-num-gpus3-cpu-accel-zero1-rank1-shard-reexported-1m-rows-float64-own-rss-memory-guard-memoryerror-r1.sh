#!/bin/bash
# deepspeed --num_gpus 3 bm_ds.py --rss-budget-mb 256 --deepspeed --deepspeed_config ds_config.json (DeepSpeed launcher,
# DS_ACCELERATOR=cpu, gloo, ZeRO stage 1). bm_ds.py has the team's own host-memory guard: each rank's RSS growth since
# start must stay under 256 MiB. Rank 1's shard was re-exported with 1,000,000 rows as float64 (planted via
# bm_prep.py --big-shard 1:1000000); loading it plus the float32 and two-view copies pushes rank 1 over the budget and
# its guard raises MemoryError before deepspeed.initialize.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 50}
J
$PY bm_prep.py --out data --shards 3 --rows 2048 --big-shard 1:1000000 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 3 bm_ds.py --steps 200 --rss-budget-mb 256 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
