#!/bin/bash
# run the oc-*.sh jobs given as arguments one at a time
H=$(dirname "$(readlink -f "$0")")
for s in "$@"; do echo "== $s $(date +%T)"; timeout -s KILL 300 bash "$H/$s"; done
