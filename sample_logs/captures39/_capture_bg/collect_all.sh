#!/bin/bash
# copy every job's log files out of /home/user/capAG/jobs/<name>/ into roundAG/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C bg-torchrun-nproc4-tee3-logdir-print-style-rank2-long-seq-batch-own-memory-guard-cuda-oom-runtimeerror-r2 console.log 'logs/**/*'
$C bg-spawn-nprocs3-logging-console-resume-ckpt-from-hidden128-run-into-hidden64-model-load-state-dict-size-mismatch-all earlier_run.log console.log
$C bg-accelerate-cpu-nproc3-tqdm-train-files-in-processed-subdir-default-path-missing-filenotfound-all console.log
$C bg-spawn-nprocs3-logging-console-rank1-unlabelled-last-batch-skip-step-peers-gloo-timeout-r1 console.log
$C bg-torchrun-nproc3-perrank-filehandler-logdir-console-rank0-rank2-inf-feature-rows-loss-check-floatingpointerror-r2 console.log 'logs/*.log'
$C bg-torchrun-nproc3-plain-console-memwatch-script-log-rank0-keeps-all-logits-rss-over-limit-sigkill-r0 console.log memwatch.log
$C bg-accelerate-fsdp-config-yaml-from-gpu-cluster-nproc2-on-cpu-box-sync-module-states-runtimeerror-all console.log
$C bg-lightning-ddp-devices3-console-val-check-interval-500-exceeds-128-train-batches-valueerror-all console.log
$C bg-healthy-torchrun-nproc4-plain-console-print-style-final-ckpt-rank0-save-others-wait-eval console.log
$C bg-healthy-accelerate-cpu-nproc2-tqdm-gather-for-metrics-epochs3-save-model console.log
$C bg-healthy-lightning-ddp-devices2-progress-bar-console-max-epochs3-fit-finished console.log
$C bg-inconclusive-torchrun-nproc2-tee3-logdir-console-snapshot-mid-run 'snapshot/console.log' 'snapshot/logs/**/*'
