#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --log-dir tlogs --tee 3: console.log = torchrun's console (tee'd lines
# prefixed [default0]: / [default1]:), tlogs/ = torchrun's per-attempt per-rank stdout.log / stderr.log files.
# Planted: DDP with find_unused_parameters=False; rank 1's data shard carries aux targets only every 4th batch, so its
# auxiliary head is skipped on step 1 -> its reducer never finishes the reduction -> "Expected to have finished
# reduction in the prior iteration" on rank 1's next forward.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $TR --standalone --nproc-per-node 2 --log-dir tlogs --tee 3 nc_twohead.py > console.log 2>&1
rc torchrun $?
