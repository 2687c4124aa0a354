#!/bin/bash
# accelerate launch --config_file acc_config.yaml (MULTI_GPU entry = torchrun path, 2 processes, static rdzv 127.0.0.1:29951; Accelerator(cpu=True) -> gloo);
# console.log = accelerate's and both processes' stdout+stderr. Logging via accelerate's get_logger.
# Planted: the checkpoint directory ckpt/ is a read-only bind mount (a shared volume mounted ro by mistake);
# only the main process (rank 0) writes there: at step 5 save_model fails with EROFS on rank 0; rank 1
# waits in wait_for_everyone().
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt && mount --bind ckpt ckpt && mount -o remount,bind,ro ckpt
nice accelerate launch --config_file acc_config.yaml cx_acc.py --epochs 2 --ckpt-dir ckpt --ckpt-every 5 > console.log 2>&1
rc launcher $?
umount ckpt
