#!/bin/bash
# Two "nodes" (UTS + mount namespaces trn-f05 / trn-f06; each binds its own local scratch on $J/scratch), each running
# torchrun --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29410
# --rdzv-id 5120 --redirects 3 --log-dir <host>/logs bu_train.py --data scratch/data. trn-f05's stage-in finished
# before launch; trn-f06's stage-in (bu_stage.sh, log in trn-f06/stagein.log) is still copying shard_03 when the job
# starts: attempt 0's rank 3 fails with FileNotFoundError; the agents restart the worker group, which dies in gloo
# connectFullMesh (connection refused) on every rank, and both agents give up after max_restarts=1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bu_prep.py --out shared --shards 4 --rows 512 > prep.log
mkdir -p scratch trn-f05/scratch/data trn-f06/scratch
cp shared/shard_00.npz shared/shard_01.npz shared/val_*.npz trn-f05/scratch/data/
L="torchrun --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29410 --rdzv-id 5120 --redirects 3 --log-dir \$(hostname)/logs bu_train.py --data scratch/data --style basic --epochs 4 --log-every 16 --step-sleep 0.01 --eval --pg-timeout 30"
unshare -u -m sh -c "hostname trn-f05; mount --bind $J/trn-f05/scratch $J/scratch; exec $L > trn-f05/console.log 2>&1" & A=$!
sleep 1
unshare -u -m sh -c "hostname trn-f06; mount --bind $J/trn-f06/scratch $J/scratch; (STAGE_SECONDS=\"2 14\" bash bu_stage.sh shared scratch/data 02 03 > trn-f06/stagein.log 2>&1 &); sleep 3; exec $L > trn-f06/console.log 2>&1" & B=$!
wait $B; rc trn-f06 $?
wait $A; rc trn-f05 $?
