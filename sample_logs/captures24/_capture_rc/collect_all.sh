#!/bin/bash
# copy every job's log files out of /home/user/jobsP/<name>/ into roundP/captures/<name>/ (layout kept, bytes unchanged)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C rc-osfork-dup2-argparse-rankfiles-collate-keyerror-r1 launcher.out 'logs/*'
$C rc-flock-serialized-launch-envfiles-master-port-typo-r2 launch.log 'out/*'
$C rc-torchrun-watchedfh-date-jobid-rankfiles-allgather-listsize-r2 torchrun.out 'logs/**/*.log'
$C rc-forloop-awk-stamped-rankfiles-rank0-only-barrier-deadlock-r0 launcher.log 'stamped/*'
$C rc-pym-distrun-restart1-redirects1-tee2-logdir-segv-restart-stale-mesh-r1 console.log 'tlogs/**/*.log'
$C rc-healthy-posix-spawn-slots-summary launch.out 'spawn/*'
$C rc-posix-spawn-slots-duplicated-rank-r1 launch.out 'spawn/*'
$C rc-typer-tasks-torchrun-dataset-cache-race-r1 tasks.log
$C rc-inconclusive-typer-tasks-tee3-logdir-snapshot-running 'snapshot/**/*.log'
$C rc-healthy-mp-pool-runpy-rankfiles-compile-cxx-env-unused pool.out 'logs/*'
$C rc-script-q-c-per-rank-typescripts-world-size-too-big-all 'typescripts/*'
$C rc-selectors-launcher-onefile-jsonl-streams-rlimit-as-buffer-oom-r1 job.jsonl
