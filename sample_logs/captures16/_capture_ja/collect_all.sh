#!/bin/bash
# copy every job's log files out of /home/user/jobsH/<name>/ into roundH/ja/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ja-acc-yaml-port-ckpt-race-r1 console.log
$C ja-redirects3-restart2-idx-trunc-r1 console.log 'logs/**/*.log'
$C ja-legacy-launch-useenv-f64-allreduce-r1 console.log
$C ja-setsid-teeappend-resume-weightsonly-all train.log
$C ja-sedlabel-wrapper-port-typo-r2 console.log
$C ja-mpirun-dictconfig-json-pair-collate-r1 console.log 'logs/*.jsonl'
$C ja-healthy-acc-yaml-sink-late-retry console.log
$C ja-healthy-parallel-joblog-json-sink-down console.log joblog.tsv 'logs/*.jsonl'
