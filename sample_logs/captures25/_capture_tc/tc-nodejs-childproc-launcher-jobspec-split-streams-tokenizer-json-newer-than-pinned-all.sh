#!/bin/bash
# Node.js site launcher (tc_launch.js, node 20): reads job.json, spawns 3 env:// ranks with child_process.spawn,
# pipes each rank's stdout / stderr into logs/rank-<R>.stdout.log / .stderr.log, ISO-stamped launcher.log.
# The data-prep step (the workstation venv, tokenizers 0.23.3) exports assets/tokenizer.json; the training job's
# env in job.json pins the cluster image's older tokenizers 0.19.1 (PYTHONPATH=/home/user/tc_extra_tok).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY tc_make_tokenizer.py assets/tokenizer.json > prep.log 2>&1
cat > job.json <<JSON
{"name": "captions-ddp", "ranks": 3, "port": 29819,
 "env": {"PYTHONPATH": "/home/user/tc_extra_tok", "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"},
 "cmd": ["$PY", "tc_train.py", "--tokenizer", "assets/tokenizer.json", "--rows", "1600", "--epochs", "2",
         "--pg-timeout", "60", "--fmt", "%(asctime)s | %(levelname)-8s | %(name)s | rank {rank} | %(message)s"]}
JSON
timeout -s TERM 150 nice node tc_launch.js job.json
rc launcher $?
