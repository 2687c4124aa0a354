#!/bin/bash
# torchrun --standalone x3 --tee 3; console.log = the agent + `[defaultN]:`-prefixed worker lines; dmesg.txt = the
# kernel lines printed while the job ran (boot-relative times).
# The ranks stream their shard parts from /data/shards, a node-local ext4 scratch volume (here a 24 MiB image,
# loop-mounted read-only inside the job's mount namespace).
# Planted: the inode of rank 1's third part (rank1/part-002.bin) has a corrupted extent header (debugfs sif
# block[0]): opening it fails with EUCLEAN 'Structure needs cleaning' and the kernel logs an EXT4-fs error.
. "$(dirname "$(readlink -f "$0")")/common.sh"
truncate -s 24M scratch.img && mkfs.ext4 -q -F -L scratch scratch.img
mkdir -p /data && mount -o loop scratch.img /data && mkdir -p /data/shards
for R in 0 1 2; do mkdir -p /data/shards/rank$R; for K in 000 001 002 003; do
  head -c 262144 /dev/urandom > /data/shards/rank$R/part-$K.bin; done; done
umount /data
debugfs -w -R "sif /shards/rank1/part-002.bin block[0] 0x1234" scratch.img > debugfs.out 2>&1
mount -o loop,ro scratch.img /data
dmesg > dmesg.before
timeout -s TERM 100 nice $TR --standalone --nproc-per-node 3 --tee 3 ea_train.py --steps 14 --pg-timeout 30 \
  --log-style iso --data-dir /data/shards > console.log 2>&1
rc launcher $?
dmesg > dmesg.after
diff dmesg.before dmesg.after | sed -n 's/^> //p' > dmesg.txt
umount /data
