#!/bin/bash
# torchrun x2 --standalone (no tee) running transformers.Trainer on CPU (ddp_backend='gloo'), transformers
# verbosity INFO, logging_steps=2, save_steps=6; console in train.log (unprefixed), trainer_state.json in out/
# and out/checkpoint-*/.
# Planted: none (healthy). Alarming but harmless: 'newly initialized' classifier weights, transformers INFO
# noise, DDP / gloo warnings.
. "$(dirname "$(readlink -f "$0")")/common.sh"
nice $TR --standalone --nproc-per-node 2 cx_hf.py > train.log 2>&1
rc launcher $?
