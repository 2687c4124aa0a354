#!/bin/bash
# fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --save-every 50 --ckpt-dir ckpt: Lightning
# Fabric CLI launcher (3 processes, gloo), fabric.print on rank 0, fabric.save every 50 steps (rank 0 writes). ckpt/
# is a 2 MiB tmpfs (planted: the node-local scratch quota) and each checkpoint is ~0.8 MB: the third save (step 150)
# runs out of space on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_prep.py --out data --shards 3 --rows 2048 > prep.log
mkdir -p ckpt && mount -t tmpfs -o size=2m tmpfs ckpt
fabric run --accelerator cpu --strategy ddp --devices 3 bm_fabric.py --steps 300 --save-every 50 --ckpt-dir ckpt > console.log 2>&1
rc fabric $?
ls -l ckpt > ckpt_listing.txt; umount ckpt
