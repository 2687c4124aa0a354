#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --redirects 3 --log-dir logs (console: agent only; workers' output only in
# the --log-dir tree). Each rank streams its own CSV parts, one part per epoch (12 parts x 3200 rows, 100 steps per
# epoch); a long, healthy-looking run (10 epochs, 1000 steps per rank). Rank 3's part-00010.csv has one row whose
# separator between feature 7 and 8 was lost in the export: at the start of epoch 10 np.loadtxt on rank 3 raises
# "the number of columns changed"; the peers wait in the epoch's first allreduce and are stopped by the agent.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_parts.py --out data --ranks 4 --parts 12 --rows 3200 --bad 3:10:1877 > prep.log
torchrun --standalone --nproc-per-node 4 --redirects 3 --log-dir logs ba_train.py --parts --data data --epochs 12 \
  --batch-size 32 --log-every 25 --step-sleep 0.005 --pg-timeout 120 > console.log 2>&1
rc torchrun $?
