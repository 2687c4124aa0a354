#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py: transformers Trainer, 4 ranks,
# gradient checkpointing, 10 warmup steps, eval every 15 steps, final evaluate + save_model. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_textprep.py --out data --vocab 500 > prep.log
cp bv_accelerate_multigpu_cpu.yaml accelerate_config.yaml; cp bv_model_config.json model_config.json
printf '# training recipe requirements\ntransformers>=5.0\naccelerate>=1.10\ntorch>=2.10\n' > requirements.txt
accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py --requirements requirements.txt \
  --max-steps 60 --eval-steps 15 --warmup-steps 10 --grad-ckpt --batch-size 8 --lr 1e-3 > console.log 2>&1
rc accelerate $?
