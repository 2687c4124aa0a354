#!/bin/bash
# The user runs everything inside `script -q -f -a logs/session.log` (a typescript, appended to across runs: raw pty
# output, CRLF line ends, the trainer's ANSI-coloured log levels). First a smoke test (torchrun --standalone
# --nproc-per-node 3 ... --max-steps 6, finishes), then the real run in the same typescript. Rank 1's shard has a band
# of rows whose feature 3 is +inf (a unit-conversion overflow in the export); when a batch of them arrives in epoch 1 the
# loss becomes nan and rank 1's nan guard logs an ERROR and raises FloatingPointError; ranks 0, 2 lose their peer.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 3 --rows 384 > prep.log
$PY - <<'PY'
import numpy as np
d = np.load("data/shard_01.npz"); x = d["x"].copy(); x[300:310, 3] = np.inf
np.savez("data/shard_01.npz", x=x, y=d["y"])
PY
mkdir -p logs
export TERM=xterm-256color
T="torchrun --standalone --nproc-per-node 3 ba_train.py --data data --log-style color --nan-guard --log-every 4 --pg-timeout 60"
script -q -f -a -c "$T --epochs 1 --max-steps 6" logs/session.log > /dev/null
script -q -f -a -c "$T --epochs 4" logs/session.log > /dev/null
rc script $?
