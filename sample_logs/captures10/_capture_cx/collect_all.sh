#!/bin/bash
# copy every job's log files out of /home/user/jobs10/<name>/ into sample_logs/captures10/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C cx-filter0-val-recursion-r2 console.log 'logs/*.log'
$C cx-redirects1-short-shard-r1 console.log 'logs/**/*.log'
$C cx-jsonlog-bcast-size-r1 console.log
$C cx-pipe-tee-bracket-nan-r2 train.log
$C cx-restart2-truncated-ckpt-all launcher.log 'logs/**/*.log'
$C cx-restart2-transient-recovers console.log 'logs/*.log'
$C cx-spawn-tee-sigterm-pgrp console.log
$C cx-pl-csv-oomkill-r1 console.log 'csv_logs/**/metrics.csv'
$C cx-acc-config-ckpt-rofs-r0 console.log
$C cx-hf-trainer-state-healthy train.log 'out/**/trainer_state.json'
$C cx-2node-c10d-stale-port-node1 'node-*/console.log'
$C cx-ray-optdep-all console.log 'r/session_2*/logs/worker-*' 'r/session_2*/logs/train/*.log'
