#!/bin/bash
# DeepSpeed engine (ZeRO stage 0, client AdamW) under torchrun x2, deepspeed.init_distributed('gloo');
# torchrun --log-dir logs --redirects 3 (launcher.log = agent only; per-rank stdout/stderr files under
# logs/<run_id>/attempt_0/<lr>/). Healthy run with alarming but harmless warnings (no 'latest' checkpoint,
# a grad-norm spike warning on rank 1, DeepSpeed's CPU-accelerator warnings). Exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29920 --log-dir logs --redirects 3 \
  x_ds.py --config ds_config.json --steps 20 --warn > launcher.log 2>&1
rc launcher $?
