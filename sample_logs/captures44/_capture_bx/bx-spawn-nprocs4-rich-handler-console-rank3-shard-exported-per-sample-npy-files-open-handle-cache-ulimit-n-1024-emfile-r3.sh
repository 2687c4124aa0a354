#!/bin/bash
# python bx_train.py --nprocs 4 --log-format rich: torch.multiprocessing.spawn, 4 ranks, DDP over gloo, rich's
# RichHandler on the console. Shards 0-2 are .npz files; rank 3's shard was exported by the newer export tool as one
# .npy file per sample (2048 files). The per-sample dataset keeps every file object open for reuse; under the shell's
# default "ulimit -n 1024" rank 3 runs out of file descriptors in its first epoch (OSError: [Errno 24]).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 4 --rows 2048 --sampledir-shard 3 > prep.log
ulimit -n 1024
$PY bx_train.py --nprocs 4 --master-port 29741 --data data --log-format rich --epochs 2 --log-every 16 --pg-timeout 30 > console.log 2>&1
rc python $?
