#!/bin/bash
# copy every job's log files out of /home/user/capBQ/jobs/<name>/ into roundAJ/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
SRC_NAME=bq-healthy-accelerate-config-file-nproc2-hf-trainer-save-steps-30-save-total-limit-final-eval-save-model $C bq-accelerate-config-file-nproc2-hf-trainer-save-steps-30-finishes-then-rank1-terminate-called-at-exit-sigabrt-r1 console.log
SRC_NAME=bq-accelerate-config-file-nproc3-hf-trainer-train-jsonl-null-text-record-tokenizer-typeerror $C bq-accelerate-config-file-nproc3-hf-trainer-train-jsonl-null-text-record-tokenizer-valueerror-r0 console.log
$C bq-deepspeed-launcher-num-gpus2-cpu-accel-ds-config-train-batch-size-64-vs-micro16-x-world2-assertion-all console.log
$C bq-deepspeed-launcher-num-gpus3-cpu-accel-zero1-rank1-shard-reexported-float64-linear-dtype-runtimeerror-r1 console.log
$C bq-healthy-accelerate-config-file-nproc2-hf-trainer-save-steps-30-save-total-limit-final-eval-save-model console.log
$C bq-healthy-deepspeed-launcher-num-gpus2-cpu-accel-zero2-steps-per-print-finished console.log
$C bq-inconclusive-lightning-ddp-devices3-progress-bar-console-snapshot-mid-run snapshot/console.log
$C bq-lightning-ddp-devices2-manual-optimization-with-gradient-clip-val-misconfiguration-all console.log
$C bq-mpirun-np3-tag-output-mpi4py-ddp-batchnorm-rank2-shard-2049-rows-last-batch-size-1-valueerror-r2 console.log
