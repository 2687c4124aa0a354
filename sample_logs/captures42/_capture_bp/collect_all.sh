#!/bin/bash
# copy every job's log files out of /home/user/capBP/jobs/<name>/ into roundAJ/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
for n in $(cd "$H" && ls bp-*.sh | sed 's/\.sh$//'); do
  case $n in
    bp-inconclusive-*) $C $n 'snapshot/console.log' 'snapshot/logs/**/*' ;;
    *) $C $n console.log 'logs/**/*' ;;
  esac
done
