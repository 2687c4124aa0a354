#!/bin/bash
# DeepSpeed launcher on the CPU accelerator (DS_ACCELERATOR=cpu, gloo), ZeRO stage 2, AdamW. An earlier run
# `deepspeed --num_gpus 2 bi_ds.py --steps 60` wrote checkpoints/global_step60 (earlier_run.log). The job then resumes
# it with one more process: `deepspeed --num_gpus 3 bi_ds.py --steps 120 --resume`; every rank's
# engine.load_checkpoint refuses the ZeRO-2 optimizer partitions written by 2 data-parallel ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 2}, "steps_per_print": 40}
J
$PY bi_prep.py --out data --shards 3 --rows 2048 > prep.log
export DS_ACCELERATOR=cpu
deepspeed --num_gpus 2 bi_ds.py --steps 60 --save-every 60 --deepspeed --deepspeed_config ds_config.json > earlier_run.log 2>&1
rc earlier $?
deepspeed --num_gpus 3 bi_ds.py --steps 120 --resume --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
rc deepspeed $?
