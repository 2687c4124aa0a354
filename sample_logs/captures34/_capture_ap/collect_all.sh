#!/bin/bash
# copy every job's log files out of /home/user/capAB/jobs/<name>/ into roundAB/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ap-torchrun-nproc3-logdir-tee3-actckpt-custom-autograd-backward-odd-batch-view-error-r2 console.log 'logs/**/*'
$C ap-spawn-nprocs3-rankfiles-rank1-skips-unknown-label-batch-ddp-allreduce-count-mismatch-r1 console.log 'ranklogs/*'
$C ap-accelerate-cpu-nproc3-jsonlines-rank0-class-weights-float64-broadcast-dtype-mismatch-r0 console.log
$C ap-2node-uts-torchrun-c10d-nnodes2-logdir-per-node-nodeb-cuda-visible-devices-one-entry-device-check-node-b trn-a/console.log 'trn-a/logs/**/*' trn-b/console.log 'trn-b/logs/**/*'
$C ap-torchrun-nproc8-redirects3-logdir-resume-rank5-state-file-nul-block-weights-only-unpicklingerror-r5 console.log 'logs/**/*'
$C ap-mpirun-np4-output-filename-rlimit-wrapper-rank2-as-limit-dropped-digit-emb-cache-alloc-oom-r2 mpirun.console 'logs/**/*'
$C ap-spawn-nprocs4-print-console-rank1-short-shard-guard-silent-sys-exit-3-r1 console.log
$C ap-2node-netns-veth-torchrun-c10d-elastic-maxrestarts1-nodeb-link-down-agent-store-connection-lost-node-b node-a.log node-b.log
$C ap-healthy-lightning-ddp-devices4-console-json-lines-activation-checkpointing-sync-dist console.log
$C ap-healthy-torchrun-nproc3-redirects3-tee1-logdir-uneven-shards-ddp-join-context console.log 'logs/**/*'
$C ap-inconclusive-spawn-nprocs2-json-logging-rankfiles-snapshot-while-running 'snapshot/**/*'
