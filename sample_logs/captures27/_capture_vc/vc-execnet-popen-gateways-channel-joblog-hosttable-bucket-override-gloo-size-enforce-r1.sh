#!/bin/bash
# execnet site launcher (vc_execnet_launch.py): one `popen` gateway per rank, the trainer remote_exec'd in it, every
# logging record sent back over the execnet channel into logs/execnet-job.log (launcher stamp + gateway id); each
# gateway's fd 2 (C++ / c10d output) pointed at logs/gw<R>.stderr. Host table hosts.json: rank 1 carries a leftover
# `--bucket-kb 64` override (hand-rolled gradient bucketing: the flat all_reduce sizes then differ from ranks 0 and 2).
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > hosts.json <<'J'
{"fmt": "%(levelname)s %(name)s r{rank}/{world}: %(message)s",
 "ranks": [{"rank": 0}, {"rank": 1, "args": ["--bucket-kb", "64"]}, {"rank": 2}]}
J
timeout -s TERM 150 nice $PY vc_execnet_launch.py --hosts hosts.json --port 29901 --grace 10 -- \
  --grad-sync manual --bucket-kb 16 --pg-timeout 30 --rows 960 --epochs 2 --warn 2> launcher.stderr
rc launcher $?
