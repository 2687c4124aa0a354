#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount + UTS namespaces from a clean env)
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls bx-*.sh); do timeout 600 bash "$H/$s"; done
bash "$H/collect_all.sh"
