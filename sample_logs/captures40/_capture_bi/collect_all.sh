#!/bin/bash
# copy every job's log files out of /home/user/capBI/jobs/<name>/ into roundAH/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C bi-accelerate-cpu-nproc3-tqdm-custom-collate-torch-stack-rank2-one-31-token-window-stack-size-runtimeerror-r2 console.log
$C bi-lightning-ddp-devices3-rank-zero-metrics-history-callback-epoch-end-json-dump-tensor-not-serializable-typeerror-r0 console.log
$C bi-lightning-ddp-spawn-devices2-datamodule-jitter-augment-local-lambda-transform-cant-pickle-spawn-attributeerror-all console.log
$C bi-torchrun-nproc2-hf-trainer-eval-steps-30-model-config-output-hidden-states-compute-metrics-tuple-argmax-attributeerror-all console.log
$C bi-healthy-torchrun-nproc3-tee3-logdir-hf-trainer-tiny-bert-eval-every-30-final-eval-save-model console.log 'logs/**/*.log'
$C bi-deepspeed-launcher-num-gpus3-cpu-accel-zero2-resume-checkpoint-saved-by-2-ranks-dp-world-size-mismatch-all earlier_run.log console.log
$C bi-mpirun-np3-tag-output-mpi4py-rank0-sqlite-metrics-backend-exporter-holds-read-txn-database-is-locked-r0 console.log exporter.log
$C bi-srun-label-wrapper-ntasks4-rank0-ckpt-save-config-object-holds-open-metrics-csv-cannot-pickle-textiowrapper-r0 console.log
$C bi-spawn-nprocs4-logging-console-local-val-early-stopping-rank2-noisy-val-split-returns-exit-0-peers-conn-closed-r2 console.log
$C bi-2node-uts-torchrun-static-nnodes2-nproc2-tee3-node-consoles-nodeb-stagein-empty-val-split-eval-zerodivision-cn-a02 cn-a01/console.log cn-a02/console.log
$C bi-healthy-mpirun-np8-output-filename-mpi4py-ddp-gloo-rank0-step-lines-final-allreduce-barrier console.log 'mpilogs/**/*'
$C bi-healthy-lightning-ddp-spawn-devices2-progress-bar-modelcheckpoint-top2-last-csvlogger-max-epochs3 console.log 'runs/**/metrics.csv'
$C bi-inconclusive-deepspeed-launcher-num-gpus2-cpu-accel-zero1-console-snapshot-mid-run snapshot/console.log
