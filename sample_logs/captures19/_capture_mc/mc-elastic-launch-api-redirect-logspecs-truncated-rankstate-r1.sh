#!/bin/bash
# `python mc_elastic_api.py 3`: the programmatic torchelastic launcher (LaunchConfig + elastic_launch with a Python
# function entrypoint, c10d rendezvous on localhost:29587, max_restarts 0, DefaultLogsSpecs(log_dir=runlogs,
# redirects=Std.ALL)); per-worker files runlogs/<run_id>/attempt_0/<local_rank>/{stdout,stderr}.log (+ error.json from
# @record), the driver's/agent's own output in console.log (LOGLEVEL=INFO).
# Planted: the per-rank resume state resume/rank-1.pt was truncated to 60000 bytes (the copy of the previous job's
# state directory was interrupted); model.pt and the other ranks' files are intact.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY mc_make_resume.py resume 3 --truncate 1:60000 > prep.txt
export LOGLEVEL=INFO
timeout -s TERM 170 nice $PY mc_elastic_api.py 3 > console.log 2>&1
rc python $?
