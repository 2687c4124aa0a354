#!/bin/bash
# copy every job's log files out of /home/user/capBX/jobs/<name>/ into roundAL/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
for n in $(cd "$H" && ls bx-*.sh | sed 's/\.sh$//'); do
  case $n in
    bx-healthy-2node-*|bx-2node-*) $C $n 'ml-a03/console.log' 'ml-a04/console.log' ;;
    bx-inconclusive-*) $C $n 'snapshot/console.log' ;;
    bx-python-m-*memwatch*) $C $n console.log memwatch.log 'logs/**/*' ;;
    *) $C $n console.log 'logs/**/*' ;;
  esac
done
