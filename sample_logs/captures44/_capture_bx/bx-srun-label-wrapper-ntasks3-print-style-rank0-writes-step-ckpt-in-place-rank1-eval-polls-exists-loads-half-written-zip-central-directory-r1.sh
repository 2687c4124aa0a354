#!/bin/bash
# ./bx_srunlike.sh -n 3 --label -- python bx_train.py: a local srun --label stand-in (real wrapper script: tasks get
# SLURM_PROCID/SLURM_NTASKS, output merged and prefixed "<task>: ", remaining tasks killed once one fails). DDP over
# gloo, print-style lines. Every 40 steps rank 0 torch.save()s ckpt/step_NNNNN.pt straight to its final name; rank 1
# (the eval rank) waits until that path exists and torch.load()s it for a val pass - while rank 0 is still writing
# it (~19 MB, hidden 1536). The step-40 read happens to get a complete file; the step-80 read gets a half-written one:
# "failed finding central directory" on rank 1.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 3 --rows 1024 > prep.log
export SLURM_JOB_ID=562091
./bx_srunlike.sh -n 3 --label -- $PY bx_train.py --log-format print --hidden 1536 --epochs 4 --log-every 10 \
  --ckpt-dir ckpt --ckpt-every 40 --eval-rank 1 --pg-timeout 30 > console.log 2>&1
rc srun $?
