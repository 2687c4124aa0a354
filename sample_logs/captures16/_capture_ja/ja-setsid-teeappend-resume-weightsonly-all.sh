#!/bin/bash
# a hand-rolled launcher: each rank is started with `setsid` (own session, as a systemd-run/nohup style wrapper does)
# running `stdbuf -oL python ja_train.py ... 2>&1 | tee -a train.log`, RANK/LOCAL_RANK/WORLD_SIZE/MASTER_ADDR/PORT
# exported per rank: both ranks append to the same train.log. asctime logging on stderr.
# Planted: the job resumes from ckpt/step-120.pt written by the old training code (torch 1.13 era): besides the
# tensors it pickles an argparse.Namespace and a numpy float64 in `meta`; ja_train.py calls torch.load(path) with the
# default weights_only=True of torch >= 2.6.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt; $PY make_old_ckpt.py ckpt/step-120.pt
pids=""; export MASTER_ADDR=127.0.0.1 MASTER_PORT=29834 WORLD_SIZE=2
for r in 0 1; do
  RANK=$r LOCAL_RANK=$r setsid bash -c 'set -o pipefail; stdbuf -oL nice python ja_train.py --resume ckpt/step-120.pt \
    --steps 140 --pg-timeout 30 2>&1 | tee -a train.log > /dev/null' &
  pids="$pids $!"
done
st=0; for p in $pids; do wait $p || st=$?; done
rc wrapper $st
