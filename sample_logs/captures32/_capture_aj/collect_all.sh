#!/bin/bash
# copy every job's log files out of /home/user/capZ/jobs/<name>/ into captures32/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C aj-2node-uts-torchrun-c10d-tee3-stale-cache-lock-gloo-timeout-r3 trn-a.console trn-b.console
$C aj-2node-uts-torchrun-c10d-rdzv-id-typo-join-timeout-trn-d trn-c.console trn-d.console
$C aj-accelerate-multigpu-on-cpu-save-state-ulimit-f-ckpt-r0 console.log
$C aj-healthy-lightning-ddp-devices3-resume-last-ckpt-two-invocations train-1.log train-2.log 'lightning_logs/**/metrics.csv' 'lightning_logs/**/hparams.yaml'
$C aj-healthy-spawn-8ranks-rankfiles-bucketcap1-final-eval spawn.console 'logs/*.log'
$C aj-healthy-torchrun-nproc4-tee3-local-ranks-filter0-logdir-channels-last-conv console.log 'logs/**/*.log'
SUB=snapshot $C aj-inconclusive-torchrun-tee3-logdir-snapshot-while-running console.log 'logs/**/*.log'
$C aj-lightning-ddp-devices3-ontrainstart-commhook-fp16guard-outlier-r1 console.log 'lightning_logs/**/metrics.csv' 'lightning_logs/**/hparams.yaml'
$C aj-mpirun-np4-tag-output-mpi4py-label-check-mpi-abort-r1 mpirun.console
$C aj-spawn-3ranks-logging-console-dataloader-worker-valueerror-na-field-r2 console.log
