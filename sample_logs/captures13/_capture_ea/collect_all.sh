#!/bin/bash
# copy every job's log files out of /home/user/jobs13ea/<name>/ into captures13/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ea-torchrun-rotating-collate-empty-r1 console.log 'logs/rank*/train.log*'
$C ea-teeappend-double-free-r1 train.log
$C ea-legacy-launch-local-rank-arg-all console.log
$C ea-dshostfile-ckpt-mirror-slow-r0 console.log
$C ea-healthy-dshostfile-warnings console.log
$C ea-acc-hftrainer-logging-dir-kwarg-all console.log 'runs/ea-hf/*.log'
$C ea-healthy-acc-hftrainer-warnings console.log 'runs/ea-hf/*.log'
$C ea-acc-hftrainer-ctrl-c-ext console.log 'runs/ea-hf/*.log'
$C ea-plcli-yaml-monitor-key-all console.log 'runs/tiny/version_0/*'
$C ea-healthy-plcli-yaml-warnings console.log 'runs/tiny/version_0/*'
$C ea-mpirun-xml-sigfpe-r2 console.log
$C ea-torchrun-ext4-euclean-shard-r1 console.log dmesg.txt
$C ea-acc-loop-main-only-gather-r0 console.log
