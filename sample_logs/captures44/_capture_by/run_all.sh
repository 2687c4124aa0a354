#!/bin/bash
# run every capture job in turn, one at a time (each re-execs itself in private network + mount + UTS namespaces
# from a clean env), then copy the logs out
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls by-*.sh); do timeout 600 bash "$H/$s"; done
bash "$H/collect_all.sh"
