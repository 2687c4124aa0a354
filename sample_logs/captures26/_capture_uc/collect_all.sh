#!/bin/bash
# copy every job's log files out of /home/user/jobsS/<name>/ into roundS/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C uc-tclsh-fileevent-pipelines-stamped-rankfiles-rank0-train-acc-inplace-round-autograd-r0 'logs/*.log'
$C uc-java-processbuilder-appendto-rankfiles-jul-xml-launcherlog-ckpt-tmp-rename-exdev-r0 'out/*' launcher.console
$C uc-pytest-xdist-dist-each-workers-as-ranks-perworker-logs-shard-size-skip-peers-collective-timeout-r2 pytest-console.txt 'logs/tests_gw*.log'
$C uc-circus-watcher-numprocesses-wid-as-rank-filestreams-no-rank0-store-timeout-all 'logs/*.log'
$C uc-dash-gdb-batch-wrapped-ranks-perrank-gdb-files-parquet-part-label-str-dtype-r2 launch.txt 'gdb/rank*.txt'
$C uc-doit-dodo-parallel-rank-tasks-featstore-stuck-read-monitored-barrier-walltime-r1 doit.log featstore.log
$C uc-luigi-local-scheduler-workers3-externalprogramtask-stale-done-marker-rank1-skipped-store-timeout-r1 luigi.log
$C uc-healthy-torchrun-duplicate-stdout-stderr-filters-filtered-logs-logging-error-noise torchrun.console 'tlogs/**/*.log'
$C uc-healthy-expect-spawn-ptys-overwrite-prompt-answered-logfile-session session.log
$C uc-inconclusive-accelerate-debug-launcher-sockethandler-collector-log-sink-killed-midrun collector.log launcher.out
$C uc-accelerate-launch-2machines-netns-veth-nodes-iproute-monitor-node-n02-link-down-cpu-n02 'cpu-n0*/accelerate.console' 'cpu-n0*/netmon.log'
