#!/bin/bash
# torchrun --standalone, 3 ranks, --tee 3 --log-dir tlogs (console and files) with torchrun's --duplicate-stdout-filters /
# --duplicate-stderr-filters (lines matching the filters are copied into filtered_stdout.log / filtered_stderr.log of
# the attempt dir); torchrun's own console in torchrun.console. The trainer logs two text samples per rank with a
# logging call whose arguments do not match its format string ("--- Logging error ---" blocks on stderr), then
# trains 3 epochs and runs a final evaluation.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY uc_make_samples.py samples.jsonl
timeout -s TERM 240 nice torchrun --standalone --nproc-per-node 3 --log-dir tlogs --tee 3 \
  --duplicate-stdout-filters 'loss,final eval,done' --duplicate-stderr-filters 'Error,Traceback,Warning' \
  uc_train.py --samples samples.jsonl --epochs 3 --rows 1200 --final-eval --warn --pg-timeout 60 \
  --fmt '%(asctime)s %(levelname)s %(name)s [{rank}/{world}] %(message)s' > torchrun.console 2>&1
rc torchrun $?
