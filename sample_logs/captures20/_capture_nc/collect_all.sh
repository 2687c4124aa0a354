#!/bin/bash
# copy every job's log files out of /home/user/jobsL/<name>/ into roundL/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C nc-torchrun-logdir-tee3-ddp-aux-branch-unfinished-reduction-r1 console.log 'tlogs/**/*'
$C nc-legacy-launch-useenv-rankstdout-redirect-monitored-barrier-val-straggler-r2 console.log 'logs/rank*.out'
$C nc-spawn-rotatingfilehandler-rankfiles-inf-feature-nan-guard-r1 console.log 'logs/rank*.log*'
$C nc-healthy-accelerate-multicpu-gradaccum4-final-metrics-json console.log
$C nc-lightning-ddp-subprocess-ckpt-every50-timeout-sigterm-ext console.log
$C nc-2node-uts-tee3-nodeconsoles-torch-version-refusal-cn-b07 'nodes/*/console.log'
$C nc-2node-uts-tee3-nodeconsoles-dcp-save-rofs-ckpt-gpu-n12 'nodes/*/console.log'
$C nc-healthy-2node-uts-tee3-nodeconsoles-stack-check-dcp-ckpts 'nodes/*/console.log'
$C nc-torchrun-redirects1-tee2-logdir-fsdp-rank-override-sharding-mismatch-r1 console.log 'trlogs/**/*'
