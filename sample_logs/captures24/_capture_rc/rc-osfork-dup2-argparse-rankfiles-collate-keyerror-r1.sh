#!/bin/bash
# argparse launcher CLI `rc_fork_launch.py`: os.fork per rank, os.dup2 of fds 1/2 onto logs/rank<R>.log, exec of the
# trainer (env://). Rank 1's shard has one sample whose label key was exported as 'label' instead of 'y'.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice $PY rc_fork_launch.py --nproc 3 --logdir logs -- $PY rc_train.py --rows 1200 --epochs 2 \
  --drop-key 1:777 --pg-timeout 60 > launcher.out 2>&1
rc launcher $?
