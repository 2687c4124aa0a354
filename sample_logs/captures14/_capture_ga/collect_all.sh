#!/bin/bash
# copy every job's log files out of /home/user/jobs14ga/<name>/ into captures14/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ga-torchrun-basiclog-eval-squeeze-r2 console.log 'logs/*.log'
$C ga-mpirun-tag-ddp-unused-aux-r1 console.log
$C ga-torchrun-glog-simmatrix-memerr-r1 console.log
$C ga-bashloop-rankfiles-csv-nan-r1 'logs/r*.txt'
$C ga-spawn-basiclog-resume-ws3-r2 console.log
$C ga-mpirun-stdin-overwrite-prompt-r0 console.log
$C ga-healthy-torchrun-restart1-cache-reset console.log 'logs/*.log'
$C ga-healthy-mpirun-outfile-glog-warnings console.log 'mpilogs/**/stdout' 'mpilogs/**/stderr'
