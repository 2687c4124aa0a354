#!/bin/bash
# copy every job's log files out of /home/user/jobsV/<name>/ into roundV/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C xc-slurm-sbatch-srun-slurm-jobid-out-slurmctld-slurmd-logs-jobcomp-time-limit-1min-copied-from-smoke-test-ext 'slurm-*.out' sbatch.txt 'slurm/log/slurmctld.log' 'slurm/log/slurmd-*.log' 'slurm/log/jobcomp.txt' scontrol-job.txt
$C xc-slurm-2node-uts-nodes-sbcast-ext-lib-node-local-tmp-srun-label-noexec-tmp-on-nodeb 'slurm-*.out' sbatch.txt 'slurm/log/slurmctld.log' 'slurm/log/slurmd-*.log' 'slurm/log/jobcomp.txt' scontrol-job.txt
$C xc-celery-prefork-worker-filesystem-broker-rank-tasks-worker-logfile-fd-stderr-console-cut-csv-row-loadtxt-r1 worker.log worker.console submit.log
$C xc-huey-consumer-process-workers-sqlite-rank-tasks-perrank-filehandler-logs-hardneg-fetch-no-timeout-hang-r2 consumer.log consumer.console enqueue.log mining-svc.log 'logs/*'
$C xc-s6-svscan-once-services-per-rank-s6-log-iso-T-logdirs-svstat-svdt-inf-feature-shard-nan-guard-r1 launch.log 'logs/*/current'
$C xc-ruby-open3-launcher-logger-default-format-one-joblog-memcg-per-rank-runaway-seq-length-pad-oomkill-r2 job.log
$C xc-cwltool-parallel-scatter-rank-jobs-no-container-one-console-yaml-weight-decay-1e-2-string-adamw-typeerror-all cwltool.console
$C xc-gnu-pexec-listfile-rank-params-otel-console-exporter-json-records-stderr-prefixed-stale-freeze-first-flag-ddp-param-count-r2 pexec.console 'otel/*'
$C xc-erlang-escript-port-launcher-otp-logger-legacy-report-header-rankfiles-eval-rank-ddp-predict-attributeerror-r1 launcher.log 'ranks/*'
$C xc-healthy-parsl-threadpool-bash-apps-per-rank-out-err-files-runinfo-parsl-log-summary-app-final-eval driver.console 'runinfo/000/parsl.log' 'logs/*'
$C xc-healthy-ipyparallel-ipcluster-daemonize-engines-as-ranks-directview-scatter-display-outputs-stdout-stderr-blocks ipcluster-start.console driver.console ipcluster-stop.console
$C xc-inconclusive-monit-check-process-pidfiles-start-programs-monit-log-status-snapshot-while-running 'snapshot/*'
$C xc-lua-luaposix-fork-poll-launcher-jobtable-prestart-hooks-rankfiles-launchlog-rank2-hook-waits-sync-lock-store-timeout-r2 launch.log sync.log 'out/*'
