#!/bin/bash
# copy every job's log files out of /home/user/jobs12da/<name>/ into captures12/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C da-torchx-ddp-label-range-r1 console.log 'tx_logs/**/*.log'
$C da-healthy-torchx-json-warnings console.log 'tx_logs/**/*.log'
$C da-fabric-busyloop-lock-r1 console.log
$C da-fabric-temp-anneal-inf-all console.log
$C da-healthy-fabric-warnings console.log
$C da-submitit-replay-cache-oomkill-r1 console.log 'sublogs/*/*_log.*' dmesg.txt
$C da-submitit-timeout-min-ext console.log 'sublogs/*/*_log.*'
$C da-submitit-ckpt-tmpfs-full-r0 console.log 'sublogs/*/*_log.*'
$C da-startproc-jsonl-eval-allreduce-r0 console.log 'logs/*.jsonl'
$C da-2node-uts-devshm-node-trn-b 'node-*.log'
$C da-healthy-2node-uts-warnings 'node-*.log'
$C da-xargs-ts-stale-cfg-pickle-r1 'logs/rank*.log'
$C da-xargs-logger-syslog-data-root-env-r2 syslog/train.log
