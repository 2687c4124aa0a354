#!/bin/bash
# copy every job's log files out of /home/user/jobsR/<name>/ into roundR/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C tc-perl-open3-select-epochms-streams-onefile-runcfg-lambda-bcast-r0 job.log
$C tc-runit-sv-once-svlogd-tt-taskset-bind-cpu-out-of-range-r2 launcher.log 'service/rank*/log/main/current'
$C tc-mpich-hydra-prepend-rank-tiedblock-reentrant-ckpt-ddp-ready-twice-all mpiexec.out
$C tc-tsp-queue-tmpdir-leak-loader-af-unix-path-too-long-all 'spool/tsp-output/ts-out.*' tsp-list.txt tsp-info.txt
$C tc-logsave-fabric-run-cli-yaml-stage2-resume-frozen-embed-optim-groups-all finetune-console.log
$C tc-joblib-loky-pool-pyspy-stall-watchdog-zero-consolidate-rank0-only-r0 launcher.out 'logs/rank*.log' 'stacks/rank*.txt'
$C tc-pm2-ecosystem-fork-apps-time-prefixed-logs-max-memory-restart-rank0-preds-r0 'pm2logs/*.log' pm2home/pm2.log
$C tc-healthy-daemontools-svscan-multilog-tai64n-final-eval launcher.log 'service/rank*/log/main/current'
$C tc-nodejs-childproc-launcher-jobspec-split-streams-tokenizer-json-newer-than-pinned-all prep.log launcher.log 'logs/*.log'
$C tc-ninja-build-graph-per-rank-edges-buffered-output-dataloader-timeout-stalled-mount-r2 ninja.out
$C tc-inconclusive-nq-queue-per-rank-memoryhandler-rankfiles-job-vanishes 'queue/rank*/,*' 'logs/rank*.log'
