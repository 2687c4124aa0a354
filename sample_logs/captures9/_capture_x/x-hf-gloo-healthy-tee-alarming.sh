#!/bin/bash
# transformers.Trainer on CPU, ddp_backend='gloo', torchrun x2, console piped through `tee train.log`.
# Setup (not kept): a tiny BERT encoder saved to tiny-bert/. The kept run loads it with from_pretrained into a
# sequence classifier (newly initialised head warnings), and a metrics-push callback fails once with a caught
# ConnectionRefusedError (ERROR with traceback) and succeeds later. Healthy: max_steps reached, exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $PY x_hf.py --config model_config.json --save-init tiny-bert > setup.txt 2>&1
nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29919 x_hf.py --config model_config.json \
  --init-from tiny-bert --steps 24 --flaky-callback 2>&1 | tee train.log
rc launcher ${PIPESTATUS[0]}
