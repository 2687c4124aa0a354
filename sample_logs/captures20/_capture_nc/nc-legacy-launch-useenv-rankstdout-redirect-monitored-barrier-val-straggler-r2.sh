#!/bin/bash
# The deprecated `python -m torch.distributed.launch --use-env --nproc-per-node 3` module; each rank redirects its own
# stdout/stderr (fd 1 and 2) to logs/rank<R>.out at start-up, so console.log holds only the launcher's output and
# whatever a rank printed before its redirect.
# Planted: rank 2 reads a legacy eval override and validates the whole 1.2M-sample set alone (others: 1/64 of it);
# the other ranks wait in dist.monitored_barrier(timeout=15 s) after validation.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $PY -m torch.distributed.launch --use-env --nproc-per-node 3 --master-port 29671 nc_valstraggler.py > console.log 2>&1
rc launch $?
