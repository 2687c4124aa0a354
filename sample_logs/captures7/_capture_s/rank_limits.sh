#!/bin/bash
# torchrun --no-python entry: per-rank resource limits, as a site prolog might set them per slot.
# Slot 1 (RANK=1) gets an address-space limit of 2500000 KiB (ulimit -v); the others are unlimited.
if [ "$RANK" = "1" ]; then ulimit -v 2500000; fi
exec python -u s_train.py "$@"
