#!/bin/bash
# copy every job's log files out of /home/user/capAD/jobs/<name>/ into roundAD/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C aw-torchrun-nproc3-logdir-tee3-rank2-unsynced-early-stop-exits-0-peers-conn-closed-r2 console.log 'logs/**/*'
$C aw-mpirun-np4-tag-output-rank1-nan-row-drop-metric-dict-order-allgather-vs-allreduce-deadlock-r1 console.log
$C aw-accelerate-cpu-nproc3-job-memcg-limit-rank1-oversized-shard-aug-cache-oomkill-r1 console.log
$C aw-2node-uts-torchrun-static-redirects3-per-node-logdir-trees-nodeb-local-data-stagein-one-shard-missing-node-b ml-n01/agent.log 'ml-n01/logs/**/*' ml-n02/agent.log 'ml-n02/logs/**/*'
$C aw-lightning-ddp-devices3-no-progress-bar-rank1-wide-range-shard-inplace-activation-cap-autograd-version-error-r1 console.log
$C aw-healthy-accelerate-cpu-nproc4-gradaccum2-metrics-sink-down-error-lines-warnings-finishes console.log
$C aw-torchrun-nproc4-logdir-tee3-tqdm-rank0-ctrl-c-sigint-process-group-mid-epoch-ext console.log 'logs/**/*'
$C aw-healthy-spawn-nprocs8-logging-console-final-eval-clean-exit console.log
$C aw-inconclusive-mpirun-np2-output-filename-per-rank-dirs-snapshot-while-running 'snapshot/**/*'
$C aw-torchrun-nproc2-plain-console-torch-compile-rank1-float64-shard-linear-dtype-error-r1 console.log
$C aw-healthy-lightning-ddp-devices2-no-progress-bar-deprecation-warnings-fit-finished console.log
