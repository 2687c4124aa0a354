#!/bin/bash
# copy every job's log files out of /home/user/jobsM/<name>/ into roundM/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C oc-honcho-procfile-rpc-tensorpipe-ps-remote-exception-trainer2 console.log
$C oc-parallel-results-tree-pipelining-gpipe-3stage-label-oob-r2 console.log 'res/**/stdout' 'res/**/stderr'
$C oc-supervisord-programs-fsdp2-fullyshard-ffn-override-r1 'logs/*'
$C oc-pytest-dtensor-multiprocesstestcase-shard-rows-offbyone-r3 console.log
$C oc-asyncio-launcher-stamped-ctypes-gather-assert-sigabrt-r1 launcher.log
$C oc-2node-uts-timedrotating-rankfiles-cgroup-cpu-throttle-eval-timeout-cn-q2 'logs/**/*' 'nodes/*/agent.log'
$C oc-healthy-torchrun-csv-metrics-only-stderr-warnings console.log 'metrics/*.csv'
$C oc-startstopdaemon-pidfiles-detail-earlystop-allgather-vs-allreduce-r2 launcher.log 'logs/rank*.log'
$C oc-lightning-ddp-subprocess-tqdm-ctrl-c-pgrp-sigint-ext console.log
$C oc-inconclusive-processpool-launcher-rankfiles-logs-stop launcher.log console.log 'logs/rank*.log'
$C oc-screen-logfile-torchrun-ddp-detail-debug-segv-all screen.log
$C oc-pdsh-exec-fsdp2-tp-2dmesh-clipgradnorm-mixed-mesh-all console.log
$C oc-healthy-pdsh-dshbak-fsdp2-tp-2dmesh-dcp-weightsonly-retry console.log
