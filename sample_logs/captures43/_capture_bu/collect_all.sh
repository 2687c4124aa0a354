#!/bin/bash
# copy every job's log files out of /home/user/capBU/jobs/<name>/ into roundAK/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
for n in $(cd "$H" && ls bu-*.sh | sed 's/\.sh$//'); do
  case $n in
    bu-inconclusive-2node-*) $C $n 'snapshot/trn-f05/console.log' 'snapshot/trn-f06/console.log' ;;
    bu-inconclusive-*) $C $n 'snapshot/console.log' ;;
    bu-2node-uts-mnt-*) $C $n 'trn-f0?/console.log' 'trn-f0?/logs/**/*' 'trn-f06/stagein.log' ;;
    bu-2node-*) $C $n 'trn-f05/console.log' 'trn-f06/console.log' ;;
    bu-mpirun-*) $C $n console.log 'out/**/*' ;;
    *) $C $n console.log 'logs/**/*' ;;
  esac
done
