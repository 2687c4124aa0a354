#!/bin/bash
# copy every job's log files out of /home/user/jobsI/<name>/ into roundI/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C kc-submitit-local-inf-feature-nan-r1 console.log 'submitit_logs/*/*_log.out' 'submitit_logs/*/*_log.err'
$C kc-torchx-localcwd-histo-gather-r1 console.log 'torchx_logs/**/*.log'
$C kc-lightningcli-yaml-infeatures-all console.log
$C kc-healthy-lightning-csv-rich-bf16 console.log 'csv_logs/**/metrics.csv'
$C kc-torchrun-elastic12-rotating-ckpt-enospc-r0 console.log 'logs/rank-*'
$C kc-two-agents-uts-static-port-nodeb 'nodes/*/torchrun.log'
$C kc-accelerate-multigpu-cpu-hf-padcache-oom-r1 console.log
$C kc-bashloop-jsonl-detail-stale-lock-r1 'logs/*'
$C kc-mpirun-outputfilename-tqdm-sigkill-r1 console.log 'mpilogs/**/stdout' 'mpilogs/**/stderr'
$C kc-fabric-run-faulthandler-ctypes-segv-r0 console.log
