#!/bin/bash
# dask.distributed LocalCluster as the launcher (wc_dask_launch.py: one nanny worker process per rank, each rank a
# task pinned to its worker); ranks log only to logs/rank<R>.log (FileHandler), distributed's logging and the
# client's results on the console. A sweep point's override file sets lr: 80.0 (the grid generator wrote the 1e-3-unit value lr_milli=80 into lr; meant 0.08); every rank reads it and
# the loss blows up; the trainer's divergence guard (loss > 1e4) stops each rank.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs sweep
printf '# sweep point 7 of lr_sweep (grid lr_milli: [10, 20, 40, 80])\nlr: 80.0\nepochs: 2\n' > sweep/point-07.yaml
timeout -s TERM 150 nice $PY wc_dask_launch.py 3 29918 -- --overrides sweep/point-07.yaml --no-stdout \
  --logfile 'logs/rank{rank}.log' --loss-limit 1e4 --pg-timeout 20 \
  --fmt '%(asctime)s %(process)d %(levelname)s [r{rank}] %(message)s' > console.log 2>&1
rc launcher $?
