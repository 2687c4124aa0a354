#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py --requirements requirements.txt:
# the recipe checks its requirements file with transformers.utils.versions.require_version at import (the way the
# transformers example scripts do); the recipe was bumped to torch>=2.14.0 while this environment has 2.13.0+cpu,
# so all 4 ranks refuse with ImportError before any work.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bv_textprep.py --out data --vocab 500 > prep.log
cp bv_accelerate_multigpu_cpu.yaml accelerate_config.yaml; cp bv_model_config.json model_config.json
printf '# training recipe requirements\ntransformers>=5.0\naccelerate>=1.10\ntorch>=2.14.0\n' > requirements.txt
accelerate launch --config_file accelerate_config.yaml --num_processes 4 bv_hf.py --requirements requirements.txt \
  --max-steps 60 --eval-steps 20 > console.log 2>&1
rc accelerate $?
