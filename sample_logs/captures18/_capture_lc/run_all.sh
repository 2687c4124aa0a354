#!/bin/bash
# run the lc-*.sh jobs given as arguments one at a time
H=$(dirname "$(readlink -f "$0")")
for s in "$@"; do echo "== $s $(date +%T)"; bash "$H/$s"; done
