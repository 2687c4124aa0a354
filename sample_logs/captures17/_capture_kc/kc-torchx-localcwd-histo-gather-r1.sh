#!/bin/bash
# torchx local_cwd scheduler, builtin component dist.ddp -j 1x2 (torchx wraps torchrun; per-replica log files under
# torchx_logs/<session>/<app_id>/trainer/0/{stdout,stderr}.log via -cfg log_dir, console = torchx CLI output with its
# `trainer/0 ` prefixes). asctime logging on stderr. Data: per-rank shards shards/part-RRRRR.npz.
# Planted: rank 1's shard was exported with a label filter that dropped every record of class 5; the label-histogram
# all_gather (torch.bincount(y) with no minlength) then has 5 elements on rank 1 and 6 on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY make_kc_shards.py shards 2 --drop-class 1:5 > make_shards.out
timeout -s TERM 150 nice $V/torchx run -s local_cwd -cfg log_dir=torchx_logs dist.ddp -j 1x2 --script kc_train.py -- \
  --shard-dir shards --gather-stats --stats-every 4 --steps 12 --pg-timeout 30 > console.log 2>&1
rc torchx $?
