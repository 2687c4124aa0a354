#!/bin/bash
# copy every job's log files out of /home/user/jobsN/<name>/ into roundN/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C pc-makefile-torchrun-dictconfig-jsonl-cut-row-r1 make.log
$C pc-torchrun-jsonfiles-prefetch-lock-inversion-faulthandler-hang console.log 'logs/*.jsonl'
$C pc-nohup-out-2node-uts-static-memwatch-sigkill-hardbatch-cache-r3 'nodes/*/nohup.out' nodes/cn-b/memwatch.log
$C pc-torchrun-maxrestarts1-tmpfs-ckpt-tmpreaper console.log 'logs/rank*.log' tmpreaper.log
$C pc-healthy-nohup-out-2node-uts-static-memwatch-hardbatch-cache 'nodes/*/nohup.out' nodes/cn-b/memwatch.log
$C pc-runjob-xtrace-envfile-c10d-torchrun-dataroot-all 'logs/run-*.log'
$C pc-accelerate-fsdp-cpu-yaml-sync-module-states-all train.out
$C pc-inconclusive-accelerate-fsdp-cpu-yaml-snapshot-running snapshot/train.out
