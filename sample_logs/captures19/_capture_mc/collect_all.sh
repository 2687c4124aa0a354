#!/bin/bash
# copy every job's log files out of /home/user/jobsK/<name>/ into roundK/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C mc-spawn-jsonl-rankfield-fileshard-uneven-r1 console.log
$C mc-healthy-fabric-launch-rich-warnings-final-eval console.log
$C mc-accelerate-multigpu-mainport-hftrainer-evaluate-label-r1 console.log
$C mc-healthy-elastic13-three-uts-nodes-node-sigkill-rejoin2 'nodes/*/agent.log'
$C mc-ray-actors-gloo-manual-allreduce-f64-override-r1 console.log
$C mc-nohup-bg-stderr-to-launcher-rank-env-typo-r2 launch.log 'logs/rank*.out'
$C mc-pdsh-style-xargs-hostprefix-2node-scratch-enospc-cn18 console.log
$C mc-elastic-launch-api-redirect-logspecs-truncated-rankstate-r1 console.log 'runlogs/**/*'
$C mc-mpirun-outputfilename-mpi4py-bcast-init-nan-abort-r2 console.log 'mpilogs/**/*'
$C mc-mp-process-queuelistener-sharedlog-early-exit0-r1 train.log console.log
$C mc-torchrun-nopython-cgroup-wrapper-dlworker-oomkill-r1 console.log
$C mc-lightning-ddp-jsonargparse-cfg-stagein-wait-timeout-r2 console.log
