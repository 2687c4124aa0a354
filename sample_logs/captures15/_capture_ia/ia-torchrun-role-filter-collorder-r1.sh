#!/bin/bash
# torchrun --standalone x3 with a custom --role (trainer), --log-dir logs --tee 3 (every rank's stdout/stderr also in
# logs/<run_id>/attempt_0/<R>/{stdout,stderr}.log) and --local-ranks-filter 0 (only rank 0's tee lines reach the
# console). asctime logging on stderr. console.log = torchrun's console. pg timeout 20 s.
# Planted: the metrics sync every 4 steps does all_reduce(loss) then all_gather(throughput) - except on the throughput
# reporter (--throughput-rank 1), whose branch was reordered to gather first. The collectives do not match: a hang
# until the 20 s gloo timeout.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 nice $TR --standalone --nproc-per-node 3 --role trainer --log-dir logs --tee 3 \
  --local-ranks-filter 0 ia_train.py --steps 12 --pg-timeout 20 --metrics-every 4 --throughput-rank 1 > console.log 2>&1
rc torchrun $?
