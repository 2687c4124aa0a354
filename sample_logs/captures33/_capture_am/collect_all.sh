#!/bin/bash
# copy every job's log files out of /home/user/capAA/jobs/<name>/ into captures33/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C am-torchrun-nproc4-plain-console-rank2-vocab-keyerror-nondaemon-pusher-thread-peers-gloo-timeout-r2 console.log
$C am-mpirun-np3-timestamp-output-memcg-per-rank-evalcache-rank1-oomkill-r1 console.log
$C am-lightning-ddp-devices3-console-rank1-stuck-sensor-col-zero-std-nan-guard-r1 console.log
$C am-accelerate-cpu-nproc4-final-eval-pad-loop-empty-val-split-wait-for-everyone-hang-r3 console.log
$C am-2node-uts-accelerate-cpu-2machines-node-local-scratch-stagein-incomplete-shards-missing-node-b node-a.log node-b.log
$C am-2node-uts-torchrun-static-tee3-nodeb-stale-venv-numpy124-stats-pickle-numpy-core-node-b node-a.log node-b.log
$C am-spawn-nprocs-auto-2-config-world-size-3-store-wait-timeout-all console.log
$C am-healthy-mpirun-np4-output-filename-lightning-mpi-environment-ddp-warnings mpirun.console 'logs/**/*'
$C am-healthy-torchrun-maxrestarts1-logdir-redirects3-stagein-race-partial-shard-restart-recovers console.log stagein.log 'logs/**/*'
$C am-inconclusive-mpirun-np3-tag-output-print-console-snapshot-while-running snapshot/console.log
$C am-healthy-spawn-nprocs3-logging-console-ckpt-each-epoch-final-barrier console.log
