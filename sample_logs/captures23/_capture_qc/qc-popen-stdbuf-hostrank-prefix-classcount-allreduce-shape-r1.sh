#!/bin/bash
# Home-grown Python launcher (qc_popen_launch.py): subprocess.Popen per env:// rank under `stdbuf -oL -eL`, one reader
# thread per child prefixing `[host:rank]`, everything in one console file job.log. 3 ranks, 2 epochs; at every epoch
# end each rank all_reduces its per-class label counts (torch.bincount of its shard's labels). Rank 1's shard was
# exported with only 3 of the 4 classes present (--classes 4,3,4), so its bincount has 3 entries.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 120 nice $PY qc_popen_launch.py 3 $PY qc_train.py --rows 1200 --classes 4,3,4 --epochs 2 \
  --class-counts --pg-timeout 30 > job.log 2>&1
rc launcher $?
