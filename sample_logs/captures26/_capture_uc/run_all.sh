#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount namespaces), then collect and write meta
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls uc-*.sh); do timeout 600 bash "$H/$s"; done
JOBS=/home/user/jobsS bash "$H/collect_all.sh" && python3 "$H/gen_meta_uc.py"
