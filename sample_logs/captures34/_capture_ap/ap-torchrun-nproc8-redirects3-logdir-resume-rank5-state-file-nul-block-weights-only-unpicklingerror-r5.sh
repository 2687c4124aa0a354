#!/bin/bash
# 8 ranks. A first torchrun run (not captured: prep) trains 1 epoch and writes ckpt/model.pt plus one per-rank state
# file ckpt/rank_XX_state.pt (RNG + optimizer state) per rank. Then a run of NUL bytes lands inside rank 5's file
# (bytes 64-255 zeroed: the start of the pickle stream inside the zip archive; a lost block). The captured run is
# the resume: `torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs ap_train.py --resume ckpt
# --epochs 3` (agent console + per-rank stdout/stderr files). Rank 5's torch.load (weights_only default) fails
# with an UnpicklingError; the agent stops the other ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ap_prep.py --out data --shards 8 --rows 128 > prep.log
torchrun --standalone --nproc-per-node 8 ap_train.py --data data --epochs 1 --ckpt ckpt --step-sleep 0 > run1.log 2>&1
rc run1 $?
$PY - <<'P'
b = bytearray(open("ckpt/rank_05_state.pt", "rb").read()); b[64:256] = bytes(192)
open("ckpt/rank_05_state.pt", "wb").write(b)
P
torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs ap_train.py --data data --resume ckpt --epochs 3 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
