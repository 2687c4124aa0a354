#!/bin/bash
# torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bp_train.py --style tqdm --hidden 256 --ckpt-dir ckpt:
# 2 ranks, rank 0 saves a checkpoint every epoch. The job runs under the shell's "ulimit -f 512" (512 KiB max file
# size, as a login-node default); the first checkpoint (~1 MiB with the momentum buffers) exceeds it: the write fails
# with EFBIG (Python ignores SIGXFSZ) and torch.save raises on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bp_prep.py --out data --shards 2 --rows 512 > prep.log
ulimit -f 512
torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bp_train.py --data data --style tqdm --hidden 256 --epochs 3 --ckpt-dir ckpt --eval > console.log 2>&1
rc torchrun $?
