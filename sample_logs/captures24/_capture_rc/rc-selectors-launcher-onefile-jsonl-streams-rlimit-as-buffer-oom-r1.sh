#!/bin/bash
# Site launcher rc_sel_launch.py: Popen per rank (env://), the ranks' stdout and stderr pipes multiplexed with
# `selectors` into ONE JSON-lines file job.jsonl (fields ts, src, stream, line; the launcher's own events too).
# limits.conf gives rank 1 (its slot shares a host with a data-loader service) an address-space limit of 6 GiB;
# after epoch 0 every rank allocates an 8 GiB feature replay buffer.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '# rank  limits\n1 as_gb=6\n' > limits.conf
timeout -s TERM 150 nice $PY rc_sel_launch.py 3 $PY rc_train.py --rows 800 --epochs 2 --buffer-gb 8 --pg-timeout 60 > launcher.out 2>&1
rc launcher $?
