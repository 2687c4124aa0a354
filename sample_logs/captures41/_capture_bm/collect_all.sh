#!/bin/bash
# copy every job's log files out of /home/user/capBM/jobs/<name>/ into roundAI/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C bm-2node-uts-torchrun-static-nnodes2-nproc2-hf-trainer-save-on-each-node-nodeb-scratch-output-dir-readonly-cn-b02 cn-b01/console.log cn-b02/console.log
$C bm-accelerate-config-file-multi-cpu-type-nproc3-without-mpirun-simple-launcher-one-process-trainer-gloo-default-pg-not-initialized-all console.log
$C bm-accelerate-config-file-nproc3-hf-trainer-tokenizer-v2-1000-words-vs-model-vocab-512-embedding-indexerror-all console.log
$C bm-deepspeed-launcher-num-gpus3-cpu-accel-zero1-rank1-shard-reexported-1m-rows-float64-own-rss-memory-guard-memoryerror-r1 console.log
$C bm-fabric-run-cli-ddp-devices3-fabric-save-every-50-ckpt-dir-on-small-tmpfs-rank0-write-fails-enospc-r0 console.log
SRC_NAME=bm-fabric-run-cli-devices3-script-written-for-python-launch-calls-fabric-launch-again-runtimeerror-all $C bm-fabric-run-cli-devices3-script-written-for-python-launch-own-fabric-devices-kwarg-conflicts-with-cli-valueerror-all console.log
$C bm-healthy-accelerate-config-file-nproc2-hf-trainer-early-stopping-callback-patience2-stops-before-max-steps console.log
$C bm-healthy-lightning-ddp-devices3-progress-bar-modelcheckpoint-pytree-deprecation-lines-fit-finished console.log 'runs/**/metrics.csv'
$C bm-healthy-mpirun-np8-tag-output-mpi4py-ddp-gloo-synced-early-stopping-mean-val-loss-ends-before-max-steps console.log
$C bm-inconclusive-srun-label-wrapper-ntasks3-print-style-console-snapshot-mid-run snapshot/console.log
$C bm-lightning-ddp-devices2-fit-ckpt-path-last-ckpt-from-hidden256-sweep-run-into-hidden64-model-size-mismatch-all earlier_run.log console.log
$C bm-lightning-ddp-devices2-val-epoch-end-macro-f1-torchmetrics-multiclass-num-classes-missing-valueerror-all console.log
$C bm-lightning-ddp-spawn-devices3-label-audit-callback-rank1-shard-relabelled-5-class-scheme-label-4-valueerror-r1 console.log
$C bm-torchrun-nproc2-redirects3-logdir-hf-trainer-train-export-label-column-renamed-category-model-returns-no-loss-valueerror-all console.log 'logs/**/*.log'
