#!/bin/bash
# copy every job's log files out of /home/user/capY/jobs/<name>/ into captures31/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ag-torchrun-logdir-tee3-ddp-comm-hook-bucket-rebuild-indexerror-r1 console.log 'logs/**/*.log'
$C ag-spawn-nprocs4-print-prefetch-thread-selfdeadlock-gloo-timeout-r2 spawn.log
$C ag-accelerate-cpu-nproc3-resume-optim-shard-stale-hidden-shape-r1 train.log
$C ag-healthy-lightning-ddp-spawn-devices2-earlystop-modelckpt-console-warnings console.log 'logs/ag/version_0/*'
$C ag-lightning-ddp-devices3-dlworkers2-jsonl-short-feature-record-r2 console.log
$C ag-2node-uts-torchrun-c10d-nnodes2-nodeconsoles-local-scratch-ckpt-full-node-b node-a/console.log node-b/console.log
$C ag-healthy-torchrun-maxrestarts2-tee3-rank1-transient-shard-conn-reset-resume-ckpt console.log
$C ag-healthy-torchrun-nproc8-redirects3-logdir-console-agent-only-warnings console.log 'logs/**/*.log'
$C ag-mpirun-np3-plain-console-mpi4py-rank1-raw-features-nan-guard-r1 mpirun.log
$C ag-torchrun-redirects3-logdir-argparse-sched-invalid-choice-all console.log 'logs/**/*.log'
$C ag-inconclusive-lightning-ddp-devices2-tqdm-csvlogger-snapshot-while-running 'snapshot/**/*'
$C ag-torchrun-nproc4-logdir-no-tee-walltime-timeout-sigterm-ext console.log
$C ag-torchrun-nproc3-redirects2-logdir-faulthandler-native-hash-segv-r2 console.log 'logs/**/*.log'
