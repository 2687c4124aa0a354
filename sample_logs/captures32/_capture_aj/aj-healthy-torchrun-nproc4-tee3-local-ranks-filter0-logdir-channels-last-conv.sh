#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --tee 3 --local-ranks-filter 0 --log-dir logs: the console shows only
# local rank 0's teed lines ([default0]: prefix) plus the agent's own; every rank's stdout/stderr is in
# logs/<run>/attempt_0/<rank>/. Healthy: a channels_last conv net under DDP, 6 epochs, a UserWarning about the
# per-rank batch (routed through logging), final eval.
. "$(dirname "$(readlink -f "$0")")/common.sh"
torchrun --standalone --nproc-per-node 4 --tee 3 --local-ranks-filter 0 --log-dir logs aj_train.py --model conv \
  --classes 4 --rows 384 --bs 32 --epochs 6 --lr 0.1 --log-every 6 --warn --final-eval \
  --fmt '%(asctime)s | %(levelname)s | %(message)s' > console.log 2>&1
rc torchrun $?
