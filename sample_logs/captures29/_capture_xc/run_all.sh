#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount namespaces from a clean environment),
# then collect and write meta. Note: the logs hold pids, ports and times; truth strings naming an ephemeral port
# (collateral `Connection closed by peer [127.0.0.1]:NNNNN`) or a task id must be updated after a rerun.
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls xc-*.sh); do timeout 600 bash "$H/$s"; done
JOBS=/home/user/jobsV bash "$H/collect_all.sh" && python3 "$H/gen_meta_xc.py"
