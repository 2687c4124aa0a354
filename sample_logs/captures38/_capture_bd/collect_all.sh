#!/bin/bash
# copy every job's log files out of /home/user/capAF/jobs/<name>/ into roundAF/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C bd-spawn-nprocs3-perrank-filehandler-shared-logdir-long-run-rank1-zero-padded-rows-whiten-autograd-fn-cholesky-r1 console.log 'logs/*.log'
$C bd-nohup-out-torchrun-nproc4-perrank-filehandler-logdir-rank2-metrics-rotate-nonreentrant-lock-selfdeadlock-peers-barrier-timeout-r2 nohup.out 'logs/*.log'
$C bd-torchrun-nproc4-tee3-logdir-dcp-save-every-200-tmpfs-ckpt-rank3-noisy-shard-hard-cache-enospc-checkpointexception-r3 console.log 'logs/**/*'
$C bd-torchrun-nproc3-redirects3-logdir-file-timer-watchdog-perrank-filehandler-launcher-sigkilled-midrun-orphans-brokenpipe-ext console.log 'elastic_logs/**/*' 'logs/*.log'
$C bd-accelerate-cpu-nproc3-gradaccum4-manifest-step-count-rank1-short-shard-next-iter-stopiteration-midrun-r1 console.log
$C bd-lightning-ddp-devices3-yaml-cosine-schedule-decay-key-typo-lambdalr-keyerror-after-warmup-300-all console.log
$C bd-mpirun-np3-perrank-filehandler-shared-logdir-rank1-prefetch-thread-dies-na-record-queue-get-blocks-peers-allreduce-timeout-r1 console.log 'logs/*.log'
$C bd-healthy-2node-uts-nohup-out-per-node-torchrun-static-nnodes2-nproc4-8ranks-metrics-push-conn-refused-error-lines-recovers 'ml-a0*/nohup.out' 'ml-a0*/logs/*.log'
$C bd-healthy-spawn-nprocs4-perrank-filehandler-shared-logdir-rank2-corrupt-chunk-logged-exception-replica-fallback-finishes console.log 'logs/*.log'
$C bd-healthy-lightning-ddp-spawn-devices2-report-callback-latest-symlink-fileexists-logged-exception-each-val-finishes console.log
$C bd-inconclusive-mpirun-np6-perrank-filehandler-shared-logdir-console-snapshot-mid-run 'snapshot/console.log' 'snapshot/logs/*.log'
