#!/bin/bash
# copy every job's log files out of /home/user/jobsO/<name>/ into roundO/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C qc-popen-stdbuf-hostrank-prefix-classcount-allreduce-shape-r1 job.log
$C qc-forkserver-queuelistener-onefile-ckpt-read-too-soon-r1 train.log launcher.err
$C qc-threadpool-launcher-rotating-rankfiles-uneven-batches-early-exit-r1 launcher.log 'logs/*'
$C qc-healthy-hydra-multirun-lr-sweep-torchrun-joblogs-warnings sweep.out 'multirun/**/*.log'
$C qc-torchrun-stallwatch-sigkill-stale-flock-metrics-r1 console.log stallwatch.log
$C qc-inconclusive-setsid-daemon-ranks-jsonl-snapshot-running 'snapshot/*.jsonl'
$C qc-tmux-window-per-rank-pipepane-label-offset-r2 'logs/win-r*.log'
$C qc-bash-waitn-launcher-sed-prefix-ckpt-erofs-r0 job.log
$C qc-popen-stderr-pipe-never-drained-nan-row-warnings-r1 launcher.log 'out/rank*.txt'
$C qc-lightning-ddp-subprocess-allgather-uneven-valfiles-r2 train.out
$C qc-torchrun-logrotate-copytruncate-walltime-sigterm-ext torchrun.out 'logs/*' logrotate.out walltime.log
$C qc-ds-launcher-launch-module-direct-batch-config-all ds_launch.log
