#!/bin/bash
# mpirun --oversubscribe -np 3 --output-filename out python bu_train.py --mpi --per-rank-ckpt --ckpt-dir ckpt --resume: per-rank
# checkpoints ckpt/rank<r>.pt from a previous 2-epoch run (hidden 64) are resumed. ckpt/rank2.pt was overwritten by
# a hidden-size sweep run (hidden 96) writing into the same ckpt dir; rank 2's load_state_dict fails with size
# mismatches while ranks 0 and 1 resumed and wait in the DDP constructor; mpirun then aborts the job.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false
$PY bu_prep.py --out data --shards 3 --rows 512 > prep.log
mpirun --oversubscribe -np 3 $PY bu_train.py --mpi --master-port 29741 --data data --epochs 2 --per-rank-ckpt --ckpt-dir ckpt > prev_run.log 2>&1
mpirun --oversubscribe -np 1 $PY bu_train.py --mpi --master-port 29742 --data data --epochs 1 --hidden 96 --per-rank-ckpt --ckpt-dir sweep > sweep_run.log 2>&1
cp sweep/rank0.pt ckpt/rank2.pt
mpirun --oversubscribe -np 3 --output-filename out $PY bu_train.py --mpi --master-port 29743 --data data --epochs 5 --log-every 16 --per-rank-ckpt --ckpt-dir ckpt --resume --eval --pg-timeout 30 > console.log 2>&1
rc mpirun $?
