#!/bin/bash
# copy every job's log files out of /home/user/capBY/jobs/<name>/ into roundAL/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C by-healthy-accelerate-launch-no-config-multi-gpu-flag-nproc3-hf-trainer-throughput-callback-warmup-final-eval-save-model console.log
SRC_NAME=by-healthy-accelerate-launch-use-fsdp-cli-flags-nproc2-cpu-full-shard-own-loop-gather-for-metrics-full-state-dict-save $C by-healthy-accelerate-launch-fsdp-cli-flags-nproc2-accelerator-cpu-true-resolves-multi-cpu-own-loop-gather-for-metrics-save console.log
$C by-healthy-lightning-ddp-devices2-tensorboard-logger-onecycle-step-scheduler-modelcheckpoint-fit-finished console.log 'runs/**/hparams.yaml'
$C by-inconclusive-ray-train-torchtrainer-workers3-console-snapshot-mid-run snapshot/console.log
SRC_NAME=by-accelerate-config-file-nproc3-hf-trainer-dynamic-pad-collator-train-record-label-exported-as-class-name-string-tensor-valueerror-rN $C by-accelerate-config-file-nproc3-hf-trainer-dynamic-pad-collator-train-record-label-exported-as-class-name-string-tensor-valueerror-r2 console.log
$C by-accelerate-config-file-nproc4-hf-trainer-rank0-eval-history-callback-reads-eval-acc-key-metric-named-accuracy-keyerror-r0 console.log
$C by-accelerate-config-file-nproc2-hf-trainer-hf-datasets-json-val-export-without-label-column-best-metric-eval-accuracy-missing-at-first-eval-keyerror-all console.log
$C by-lightning-ddp-devices4-tensorboard-logger-detect-anomaly-sgd-lr-3e1-typo-for-3e-3-weights-diverge-nan-backward-runtimeerror-all console.log 'runs/**/hparams.yaml'
$C by-lightning-ddp-spawn-devices3-csvlogger-onecycle-lr-scheduler-dict-interval-batch-misconfiguration-all console.log
$C by-deepspeed-launcher-num-gpus4-cpu-accel-zero1-ds-config-scheduler-type-warmupcosine-not-a-deepspeed-or-torch-scheduler-assertion-all console.log
$C by-ray-train-torchtrainer-workers2-rank1-shard-relabelled-5-class-scheme-label-4-cross-entropy-target-out-of-bounds-r1 console.log
$C by-ray-remote-actors3-driver-gloo-ddp-job-memcg-2500m-rank2-shard-reexported-200k-rows-aug-cache-40-copies-actor-oomkill-r2 console.log kern_oom.log
