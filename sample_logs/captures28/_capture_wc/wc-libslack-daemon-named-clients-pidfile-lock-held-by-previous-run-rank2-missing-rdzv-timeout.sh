#!/bin/bash
# libslack `daemon` as the per-rank process supervisor (wc_daemon_launch.sh). The previous submission of the same job
# left its rank 2 behind (still waiting in its own rendezvous, started as `daemon --name=rank2` with the same pid-file
# directory), so rank2's pid file is still locked. This run's rank 2 daemon refuses to start; ranks 0 and 1 wait in
# init_process_group for the third member until the store timeout (20 s).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p run logs prev
# the leftover of the previous run (its output in prev/, not collected)
daemon --name=rank2 --pidfiles="$J/run" --chdir="$J" --output="$J/prev/rank2.log" --env=RANK=2 --env=WORLD_SIZE=3 \
  --env=MASTER_ADDR=127.0.0.1 --env=MASTER_PORT=29901 -- /usr/bin/env $PY wc_train.py --pg-timeout 600
sleep 2
timeout -s TERM 120 nice ./wc_daemon_launch.sh 3 29919 -- /usr/bin/env $PY wc_train.py --epochs 1 --pg-timeout 20 \
  --fmt '%(asctime)s.%(msecs)03d|%(levelname)s|r{rank}|%(message)s' > launch.log
rc launcher $?
daemon --stop --name=rank2 --pidfiles="$J/run"
