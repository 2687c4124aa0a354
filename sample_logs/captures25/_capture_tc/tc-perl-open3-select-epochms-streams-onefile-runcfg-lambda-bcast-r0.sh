#!/bin/bash
# Perl site launcher (tc_launch.pl: IPC::Open3 per rank, IO::Select multiplexing of each rank's stdout and stderr
# into one job.log, epoch-millisecond stamps, `r<R> O|E` tags), 3 env:// ranks. Rank 0 builds the run config (incl.
# a LambdaLR warm-up schedule as a lambda) and broadcasts it with dist.broadcast_object_list.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice perl tc_launch.pl --nproc 3 --port 29731 --log job.log --grace 10 -- \
  $PY tc_train.py --run-cfg --rows 1600 --epochs 2 --pg-timeout 60 \
  --fmt '%(asctime)s [%(levelname)s] %(name)s (rank {rank}/{world}): %(message)s'
rc launcher $?
