#!/bin/bash
# copy every incident's log files out of its scratch dir (collect.py: layout kept, the interpreter path rewritten)
set -e
H=$(dirname "$(readlink -f "$0")")
c() { n=$1; shift; d="$H/../$n"
      [ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 ! -name README.md ! -name truth.json ! -name .correlatorignore -exec rm -rf {} +
      python3 "$H/collect.py" "$n" "$@"; }
c s-spawn-logfiles-segv console.log 'logs/*.log'
c s-static-2node-env-node1 'node-*/console.log'
c s-srunlabel-straggler-timeout slurm-5150.out
c s-fsdp-resume-shard-mixup console.log 'logs/**/*.log'
c s-loguru-ulimit-v-rank1 launcher.log 'logs/*.log'
c s-tqdm-tee2-tail-item console.log
c s-redirects1-reltime-beta-typo console.log 'logs/**/*.log' 'out/*.txt'
c s-pl-csv-nofile-rank2 console.log 'csv_logs/**/*'
c s-pl-csv-healthy-alarming console.log 'csv_logs/**/*'
c s-static-2node-healthy-detail 'node-*/console.log'
c s-acc-yaml-rich-timeout-term console.log
c s-ray-tempdir-nan-spread console.log 'rt/session_2*/logs/worker-*' 'rt/session_2*/logs/train/*.log'
