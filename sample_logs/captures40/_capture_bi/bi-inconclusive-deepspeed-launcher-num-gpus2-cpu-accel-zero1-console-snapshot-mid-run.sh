#!/bin/bash
# deepspeed --num_gpus 2 bi_ds.py --steps 3000 (CPU accelerator, gloo, ZeRO stage 1, checkpoint every 500 steps), the
# launcher's combined console in console.log. The console was copied to snapshot/ ~30 s into the run, while the job
# was still training (it was stopped afterwards; that part is not in the capture).
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<'J'
{"train_micro_batch_size_per_gpu": 32, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
 "zero_optimization": {"stage": 1}, "steps_per_print": 200}
J
$PY bi_prep.py --out data --shards 2 --rows 2048 > prep.log
export DS_ACCELERATOR=cpu
setsid deepspeed --num_gpus 2 bi_ds.py --steps 3000 --save-every 500 --deepspeed --deepspeed_config ds_config.json > console.log 2>&1 &
P=$!
sleep 30
mkdir -p snapshot && cp console.log snapshot/console.log
kill -TERM -- -$P; wait $P; rc deepspeed $?
