#!/bin/bash
# copy every job's log files out of /home/user/jobs11/<name>/ into captures11/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C cz-spawn-rankfiles-gather-shape-r2 console.log 'logs/*.txt'
$C cz-bashloop-envfile-masteraddr-r1 'out.*'
$C cz-run-static-detail-extra-barrier-r0 console.log
$C cz-standalone-role-fifo-stall-r1 console.log 'logs/**/*.log'
$C cz-torchrun-module-json-tensor-r0 train.log
$C cz-redirects2-dlworker-segv-r1 console.log 'logs/**/*.log'
$C cz-plnotebook-anomaly-lr-all console.log
$C cz-nblauncher-csv-row-r1 console.log
$C cz-mpirun-timeout-sigterm-ext console.log
$C cz-mpirun-logfiles-empty-ckpt-r2 console.log 'logs/*.log'
$C cz-mpmd-stale-checkout-r1 console.log
$C cz-healthy-standalone-role-tee-warnings console.log 'logs/**/*.log'
$C cz-healthy-mpirun-loguru console.log
$C cz-healthy-plnotebook-anomaly-on console.log
