#!/bin/bash
# torchrun --standalone --role trainer x3 --log-dir logs --redirects 3 --tee 3; healthy run with noise:
# a GradScaler UserWarning, a max_grad_norm WARNING and a caught+retried ConnectionResetError logged with
# its traceback at ERROR level; exit 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 60 nice $TR --standalone --nproc-per-node 3 --role trainer --log-dir logs --redirects 3 --tee 3 \
  cz_train.py --log-style pipe --steps 8 --pg-timeout 20 --warnings > console.log 2>&1
rc launcher $?
