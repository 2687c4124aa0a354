#!/bin/bash
# torchrun --standalone --nproc-per-node 3; the workers keep their metrics only in metrics/rank<R>.csv (one row per
# 10 steps and one val row per epoch) and print nothing on stdout; warnings and the closing summary go to stderr,
# which torchrun passes to console.log (no --tee, no rank prefixes).
# Planted: nothing (healthy); warnings from a kept `find_unused_parameters=True`, an lr_scheduler.step() before the
# first optimizer.step().
. "$(dirname "$(readlink -f "$0")")/common.sh"
export GLOO_SOCKET_IFNAME=lo
timeout -s TERM 150 nice $TR --standalone --nproc-per-node 3 oc_csv_train.py > console.log 2>&1
rc torchrun $?
