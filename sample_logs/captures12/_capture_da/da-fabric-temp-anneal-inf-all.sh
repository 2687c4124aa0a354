#!/bin/bash
# Lightning Fabric, DA_DEVICES=3: Fabric(accelerator="cpu", devices=3, DDPStrategy(gloo, timeout=30 s)); one console.log.
# Planted (every rank, same code): a 'sharpening' schedule halves the softmax temperature every step and the loss is
# written as -log(softmax(logits / T)) by hand; once T is tiny the target class's probability underflows to 0 on
# some sample -> log(0) = -inf -> inf/nan gradients, all-reduced by DDP to every rank; every rank's own guard raises
# FloatingPointError on the non-finite mean loss.
. "$(dirname "$(readlink -f "$0")")/common.sh"
DA_DEVICES=3 unshare -p -f timeout -s TERM 90 nice $PY da_fabric.py --steps 14 --pg-timeout 30 --fault temp_anneal > console.log 2>&1
rc launcher $?
