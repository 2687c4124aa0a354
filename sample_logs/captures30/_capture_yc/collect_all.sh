#!/bin/bash
# copy every job's log files out of /home/user/jobsW/<name>/ into roundW/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C yc-rq-redis-burst-workers-queue-per-rank-worker-logs-submit-poll-per-class-report-str-key-keyerror-r1 submit.log 'workers/*.log' redis.log
$C yc-dramatiq-redis-worker-per-rank-queue-log-file-no-handler-records-empty-target-resample-loop-time-limit-r2 submit.log 'logs/*.log'
$C yc-ompi-mpirun-rsh-agent-nsenter-2node-uts-display-map-node-local-var-log-train-rankfiles-data-mount-missing-nodeb mpirun.console 'nodea-log/*' 'nodeb-log/*'
$C yc-ctest-j3-add-test-per-rank-output-on-failure-lasttest-log-pipe-records-metric-sync-gather-vs-allreduce-r2 ctest.console build/Testing/Temporary/LastTest.log
$C yc-scons-j3-command-target-per-rank-redirected-rank-logs-scons-console-yaml-bs-zero-rendered-empty-all scons.console 'logs/*.log'
$C yc-annotate-output-torchrun-standalone-nproc3-o-e-stamped-console-spot-preemption-notice-agent-sigterm-ext console.log preempt.log
$C yc-rust-std-process-launcher-memcg-per-rank-ranks-dir-stdout-stderr-launcher-log-exitstatus-activation-probe-cache-oomkill-r1 launcher.log 'ranks/*/stdout' 'ranks/*/stderr'
$C yc-c-fork-execvp-launcher-syslog-stamped-launch-log-stdio-files-datagramhandler-udp-receiver-records-shard-overflow-rows-nan-guard-r1 launch.log records.log 'stdio/*.txt'
$C yc-gearman-gearmand-worker-cli-per-rank-function-client-cli-job-output-files-worker-stderr-gearmand-log-semicolon-shard-loadtxt-r2 gearmand.log 'workers/*.err' 'clients/*.out'
$C yc-papermill-notebook-per-rank-parameters-cell-executed-ipynb-outputs-log-output-consoles-recipe-needs-newer-torch-all 'papermill-rank*.log' 'out/*.ipynb'
$C yc-healthy-forever-node-monitor-start-per-rank-uid-max-1-forever-out-err-logs-forever-list-final-eval forever-start.console forever-list.txt 'forever/*'
$C yc-healthy-apscheduler-blocking-scheduler-date-trigger-rank-jobs-threadpool-subprocess-scheduler-log-rank-logs-final-eval scheduler.log 'ranks/*.log'
$C yc-inconclusive-tini-subreaper-bash-launcher-cronolog-per-minute-rank-files-date-dirs-symlinks-snapshot-while-running 'snapshot/**/*'
