#!/bin/bash
# copy every job's log files out of /home/user/capAC/jobs/<name>/ into roundAC/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C at-torchrun-nproc3-redirects3-logdir-persistent-dl-workers-rank1-truncated-rec-shard-short-read-reshape-r1 console.log 'logs/**/*'
$C at-spawn-nprocs8-fp16-grad-allreduce-loss-scale-rank5-raw-unit-column-inf-grad-check-raises-r5 console.log
$C at-2node-uts-mnt-torchrun-c10d-per-host-dirs-rankfiles-nodeb-ckpt-scratch-readonly-remount-save-fails-node-b trn-a/torchrun.log 'trn-a/ranklogs/*' trn-b/torchrun.log 'trn-b/ranklogs/*'
$C at-2node-uts-torchrun-static-combined-console-host-prefix-nodeb-stale-model-yaml-hidden-ddp-param-shape-mismatch-node-b console.log
$C at-mpirun-np3-tag-output-tensorboard-flag-all-ranks-missing-optional-tensorboard-import-error-all console.log
$C at-healthy-torchrun-nproc4-dictconfig-shared-rotatingfilehandler-ranks-rotate-each-other-eval console.log 'logs/*'
$C at-lightning-ddp-devices3-tqdm-progress-only-rank1-label-id-4-cross-entropy-target-out-of-bounds-r1 console.log
$C at-accelerate-cpu-nproc2-save-state-every-4-steps-walltime-wrapper-timeout-sigterm-during-save-ext slurm-70412.out
$C at-healthy-deepspeed-launcher-num-gpus4-cpu-accel-zero1-each-rank-log-dir-shm-comm-build console.log 'ranklogs/*'
$C at-healthy-spawn-nprocs3-print-console-dl-workers2-no-shuffle-eval-final-barrier console.log
$C at-inconclusive-accelerate-cpu-nproc2-save-state-console-snapshot-while-running 'snapshot/*'
