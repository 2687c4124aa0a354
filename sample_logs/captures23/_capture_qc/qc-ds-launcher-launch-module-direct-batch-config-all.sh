#!/bin/bash
# DeepSpeed's per-node launcher module called directly (`python -m deepspeed.launcher.launch --world_info <b64>
# --node_rank 0 --master_addr 127.0.0.1 --master_port 29899`, as the deepspeed runner does on each node, here from a
# site job script without the runner), 3 local ranks on the CPU accelerator, console in ds_launch.log. ds_config.json
# was copied from a 4-GPU job: train_batch_size 32 with train_micro_batch_size_per_gpu 8 and gradient_accumulation_steps 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ds_config.json <<EOC
{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 1,
 "optimizer": {"type": "SGD", "params": {"lr": 0.05}}, "zero_optimization": {"stage": 0}}
EOC
WI=$($PY -c 'import base64,json;print(base64.urlsafe_b64encode(json.dumps({"localhost":[0,1,2]}).encode()).decode())')
DS_ACCELERATOR=cpu timeout -s TERM 200 nice $PY -u -m deepspeed.launcher.launch --world_info=$WI --node_rank=0 \
  --master_addr=127.0.0.1 --master_port=29899 qc_ds_train.py --steps 60 > ds_launch.log 2>&1
rc launch $?
