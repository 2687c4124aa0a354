#!/bin/bash
# copy every job's log files out of /home/user/jobsJ/<name>/ into roundJ/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C lc-hydra-torchrun-rank-rundirs-numclasses-all console.log 'outputs/run/*/lc_hydra.log'
$C lc-ignite-parallel-jsonl-short-row-r1 console.log
$C lc-deepspeed-launcher-rank-logs-fifo-stall-r1 console.log 'rank_logs/*.log'
$C lc-c10d-three-agents-uts-node-scratch-missing-cn03 'nodes/*/agent.log'
$C lc-script-typescript-orphan-store-port-inuse typescript.log
$C lc-logger-syslog-bashloop-ulimit-cache-oom-r1 syslog launcher.log
$C lc-faketime-two-nodes-redirects3-logdir-nan-r2 'nodes/*/agent.log' 'nodes/*/logs/**/*.log'
$C lc-mpirun-tagoutput-timestamp-eval-skip-order-r1 console.log
$C lc-torchrun-pidonly-warnings-flood-worker-segv-r1 console.log
$C lc-healthy-tmux-pipepane-tqdm-ckpt-enospc-retry tmux-pane.log
