#!/bin/bash
# deepspeed --num_gpus 3 bv_ds.py --steps 180 --save-every 60 (DS_ACCELERATOR=cpu, gloo): ZeRO stage 0, Adam with a
# WarmupLR scheduler, checkpoints every 60 steps into checkpoints/ on the ordinary disk. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 2, "gradient_clipping": 1.0,
 "optimizer": {"type": "Adam", "params": {"lr": 0.001, "betas": [0.9, 0.999], "eps": 1e-8}},
 "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 0.001, "warmup_num_steps": 30}},
 "zero_optimization": {"stage": 0}, "steps_per_print": 30}
J
$PY bv_prep.py --out data --shards 3 --rows 2048 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 3 bv_ds.py --steps 180 --save-every 60 --hidden 128 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
