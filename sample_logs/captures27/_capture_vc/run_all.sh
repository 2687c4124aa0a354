#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount namespaces), then collect and write meta
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls vc-*.sh); do timeout 600 bash "$H/$s"; done
JOBS=/home/user/jobsT bash "$H/collect_all.sh" && python3 "$H/gen_meta_vc.py"
