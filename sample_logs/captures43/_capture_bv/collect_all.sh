#!/bin/bash
# copy every job's log files out of /home/user/capBV/jobs/<name>/ into roundAK/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
for s in $(cd "$H" && ls bv-*.sh); do
  n=${s%.sh}
  case $n in
    bv-inconclusive-*) $C $n snapshot/console.log ;;
    *) $C $n console.log ;;
  esac
done
