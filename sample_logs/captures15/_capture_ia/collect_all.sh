#!/bin/bash
# copy every job's log files out of /home/user/jobsG/<name>/ into roundG/ia/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ia-parallel-tag-ddp-paramcount-r1 console.log
$C ia-mpi4py-stale-cachelock-straggler-r2 console.log 'logs/*.log'
$C ia-torchrun-role-filter-collorder-r1 console.log 'logs/**/*.log'
$C ia-plspawn-tokenizer-v2-shard-r1 console.log
$C ia-make-j3-envfile-worldsize-r2 console.log
$C ia-elastic-1to2-gradaccum-lr-zerodiv-all console.log 'logs/*.log'
$C ia-2node-hosts-no-master-name-trn-b node-trn-a.log node-trn-b.log
$C ia-2node-nproc-ulimit-dlworkers-trn-b 'trn-a/*.log' 'trn-b/*.log'
$C ia-healthy-ray-maxfail1-sink-reset console.log
$C ia-healthy-xargs-slotvar-hftrainer-eachnode console.log 'logs/*.log'
