#!/bin/bash
# torchrun --standalone --nproc-per-node 3; ranks log only through a FileHandler (mode a) to logs/train.r<R>.log;
# torchrun's own console in torchrun.out. 12 s in, the site's logrotate (logrotate 3.21, `copytruncate`, rotate 3,
# dateext off) rotates logs/*.log (-> train.r<R>.log.1 and the live file truncated, verbose output in
# logrotate.out). The job's walltime guard (walltime.sh, limit 25 s, log walltime.log) then sends SIGTERM to the
# torchrun agent. The run itself (4 epochs of 4000 rows, ~35 s) would have finished without the limit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
cat > logrotate.conf <<EOC
$J/logs/*.log {
    copytruncate
    rotate 3
    size 1
    missingok
    nocompress
}
EOC
timeout -s KILL 150 nice torchrun --standalone --nproc-per-node 3 qc_train.py --rows 4000 --epochs 4 --sleep 0.05 \
  --qc-log 'file:logs/train.r{rank}.log' --pg-timeout 60 > torchrun.out 2>&1 & agent=$!
( sleep 12; logrotate -v -s $J/logrotate.state $J/logrotate.conf ) > logrotate.out 2>&1 &
( echo "$(date '+%F %T') walltime: job $agent started, limit 25s"; sleep 25
  echo "$(date '+%F %T') walltime: limit reached, sending SIGTERM to $agent"; kill -TERM $agent
  sleep 10; kill -0 $agent 2>/dev/null && { echo "$(date '+%F %T') walltime: still alive, SIGKILL"; kill -KILL $agent; } ) > walltime.log 2>&1 &
wait $agent; rc torchrun $?; wait
