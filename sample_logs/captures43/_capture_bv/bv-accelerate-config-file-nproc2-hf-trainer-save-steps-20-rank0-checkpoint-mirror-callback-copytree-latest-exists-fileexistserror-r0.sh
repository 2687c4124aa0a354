#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 2 bv_hf.py (torchrun underneath, gloo):
# transformers Trainer with a CheckpointMirror callback (on_save, rank 0 only) that copies every new checkpoint to
# mirror/latest with shutil.copytree. The first save (step 20) creates mirror/latest; the second (step 40) finds it
# there and copytree raises FileExistsError inside the callback on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_textprep.py --out data --vocab 500 > prep.log
cp bv_accelerate_multigpu_cpu.yaml accelerate_config.yaml; cp bv_model_config.json model_config.json
accelerate launch --config_file accelerate_config.yaml --num_processes 2 bv_hf.py --max-steps 80 --eval-steps 20 \
  --save-strategy steps --save-steps 20 --mirror mirror --lr 1e-3 > console.log 2>&1
rc accelerate $?
