#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount namespaces from a clean environment),
# then collect. Note: the logs hold pids, ports and times; truth strings naming an ephemeral value must be updated
# after a rerun.
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls aj-*.sh); do timeout 600 bash "$H/$s"; done
bash "$H/collect_all.sh"
