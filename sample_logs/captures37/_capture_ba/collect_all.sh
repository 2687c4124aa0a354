#!/bin/bash
# copy every job's log files out of /home/user/capAE/jobs/<name>/ into roundAE/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C ba-torchrun-nproc4-redirects3-logdir-long-run-1000-steps-rank3-part-00010-csv-lost-separator-columns-changed-r3 console.log 'logs/**/*'
$C ba-spawn-nprocs3-logging-console-rank0-only-eval-loop-rare-class-never-predicted-precision-zerodivision-peers-at-barrier-r0 console.log
$C ba-torchrun-nproc3-plain-console-rank2-slow-batch-fetch-straggler-peers-gloo-allreduce-timeout-r2 console.log
$C ba-accelerate-cpu-nproc3-resume-save-state-rank1-data-state-pt-truncated-by-interrupted-sync-zip-central-directory-r1 console.log
$C ba-mpirun-np4-plain-interleaved-console-yaml-optimizer-nesterov-momentum-typo-sgd-typeerror-all console.log
$C ba-healthy-torchrun-nproc4-maxrestarts1-tee3-attempt0-vocab-cache-read-while-rank0-writes-restart-finishes console.log
$C ba-2node-uts-torchrun-static-tee3-node-consoles-nodeb-memcg-rank3-oversized-shard-hardneg-sim-matrix-oomkill-r3 trn-07/console.log trn-08/console.log trn-08/dmesg.log
$C ba-script-typescript-append-ansi-color-logs-torchrun-nproc3-smoke-then-run-rank1-inf-feature-rows-nan-guard-r1 logs/session.log
$C ba-healthy-lightning-ddp-devices3-warnings-always-per-step-userwarning-flood-fit-finished console.log
$C ba-lightning-ddp-devices3-dl-workers2-rank1-latin1-record-unicodedecodeerror-in-worker-r1 console.log
$C ba-inconclusive-spawn-nprocs4-tqdm-rank0-bar-print-ranks-console-snapshot-mid-epoch snapshot/console.log
$C ba-healthy-accelerate-cpu-nproc8-save-state-each-epoch-final-eval-gather-for-metrics console.log
