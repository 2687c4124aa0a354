#!/bin/bash
# ./bi_srunlike.sh -n 4 --label -- python bi_ddp.py --slurm: a local srun --label stand-in (real wrapper script:
# tasks get SLURM_PROCID/SLURM_NTASKS, output merged and prefixed "<task>: ", tasks killed once one fails). DDP over
# gloo, print-style logs from every rank. Rank 0 appends CSV metrics to metrics.csv through a file object kept on the
# run's Config object; every 100 steps rank 0 torch.save()s {model, optim, config} -> pickling the Config pickles the
# open file object and fails on the first checkpoint (step 100).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 4 --rows 2048 > prep.log
export SLURM_JOB_ID=418822
./bi_srunlike.sh -n 4 --label -- $PY bi_ddp.py --slurm --style print --steps 400 --log-every 25 --ckpt-every 100 \
  --metrics-file metrics.csv --pg-timeout 60 --step-sleep 0.01 > console.log 2>&1
rc srun $?
