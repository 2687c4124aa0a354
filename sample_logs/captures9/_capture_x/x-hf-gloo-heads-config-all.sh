#!/bin/bash
# transformers.Trainer on CPU, ddp_backend='gloo', under torchrun x2 --log-dir logs --redirects 3 --tee 3
# (console.log = agent + [defaultN] copies; logs/<run_id>/attempt_0/<lr>/{stdout,stderr}.log).
# The shared model_config.json was edited to hidden_size 30 (meant 32) with num_attention_heads 4: every rank
# fails building the model.
. "$(dirname "$(readlink -f "$0")")/common.sh"
sed -i 's/"hidden_size": 32/"hidden_size": 30/' model_config.json
nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29918 --log-dir logs --redirects 3 --tee 3 \
  x_hf.py --config model_config.json --steps 20 > console.log 2>&1
rc launcher $?
