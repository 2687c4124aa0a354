#!/bin/bash
# copy every job's log files out of /home/user/capBH/jobs/<name>/ into roundAH/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C bh-torchrun-nproc3-redirects3-logdir-rank1-shard-left-as-git-lfs-pointer-np-load-pickle-refused-r1 console.log 'logs/**/*'
$C bh-spawn-nprocs3-print-console-pretrain-script-module-level-mp-spawn-no-main-guard-bootstrapping-runtimeerror-all console.log
$C bh-torchrun-nproc4-tee3-logdir-resume-ckpt-exported-from-ddp-wrapper-module-prefix-keys-load-state-dict-all earlier_run.log console.log 'logs/**/*'
$C bh-2node-uts-torchrun-static-nnodes2-per-node-consoles-nodeb-launch-line-copied-node-rank-0-store-port-taken-nodeb 'gpu-n07/console.log' 'gpu-n08/console.log'
$C bh-torchrun-nproc2-redirects2-tee1-logdir-gpu-recipe-syncbatchnorm-on-cpu-gloo-ddp-wrap-valueerror-all console.log 'logs/**/*'
$C bh-torchrun-nproc3-redirects3-logdir-rankfiles-rank0-ckpt-runstate-holds-filehandler-torch-save-pickle-typeerror-r0 console.log 'logs/**/*' 'ranklogs/*.log'
$C bh-spawn-nprocs4-logging-console-rank3-shard-reexported-int32-labels-cross-entropy-target-dtype-r3 console.log
$C bh-spawn-nprocs3-logging-console-rank1-local-early-stop-destroys-pg-then-final-allreduce-default-pg-not-initialized-r1 console.log
$C bh-healthy-torchrun-nproc3-redirects1-logdir-find-unused-true-no-unused-params-ddp-warning-final-eval console.log 'logs/**/*'
$C bh-healthy-spawn-nprocs2-logging-console-rank0-atexit-metrics-json-dir-missing-exception-ignored-exit0 console.log
$C bh-healthy-torchrun-nproc8-tee1-logdir-print-style-warmup-lambdalr-stepped-before-optimizer-userwarning-final-eval console.log 'logs/**/*'
$C bh-inconclusive-torchrun-nproc3-redirects3-logdir-no-tee-agent-only-console-snapshot-mid-run 'snapshot/console.log' 'snapshot/logs/**/*'
