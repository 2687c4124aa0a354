#!/bin/bash
# torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs: console.log is the agent's console with every
# worker's output teed (prefixed), logs/<run id>/attempt_0/<r>/{stdout,stderr}.log the per-worker copies. Every 200
# steps (of 1000) the ranks save a torch.distributed.checkpoint (dcp.save) into ckpt/, a 1600 KiB tmpfs (the scratch
# quota the job was given). Besides the DDP model and optimizer, each rank puts its own hard-example cache (rows whose
# loss > 1.0) into the checkpoint. Rank 3's shard has 35% flipped labels (a bad annotation batch), so its cache grows
# ~4x faster than the others'. During the step-600 save the tmpfs runs out while rank 3 writes its __3_0.distcp:
# OSError ENOSPC on rank 3; dcp's collective finish turns it into a CheckpointException raised on every rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 4 --rows 6400 --label-noise-shard 3 > prep.log
mkdir -p ckpt && mount -t tmpfs -o size=1600k tmpfs ckpt
torchrun --standalone --nproc-per-node 4 --tee 3 --log-dir logs bd_train.py --data data --steps 1000 --dcp-every 200 \
  --hard-cache --log-dir "" --console all --log-every 50 --pg-timeout 60 --step-sleep 0.005 > console.log 2>&1
rc torchrun $?
df -k ckpt > ckpt_df.txt; ls -laR ckpt > ckpt_ls.txt; umount ckpt
