#!/bin/bash
# copy every job's log files out of /home/user/capBL/jobs/<name>/ into roundAI/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
for n in $(cd "$H" && ls bl-*.sh | sed 's/\.sh$//'); do
  case $n in
    bl-healthy-2node-*) $C $n 'trn-c11/console.log' 'trn-c12/console.log' ;;
    bl-2node-*) $C $n 'trn-c11/console.log' 'trn-c12/console.log' 'trn-c12/reaper.log' ;;
    bl-inconclusive-*) $C $n 'snapshot/console.log' 'snapshot/logs/**/*' ;;
    *) $C $n console.log 'logs/**/*' ;;
  esac
done
