#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount + UTS namespaces from a clean env),
# then copy the logs out. The Ray jobs use the venv with ray installed (BV_VENV).
H=$(dirname "$(readlink -f "$0")")
for s in $(cd "$H" && ls bv-*.sh); do
  case $s in *ray*) BV_VENV=/home/user/capBV/venv timeout 600 bash "$H/$s" ;; *) timeout 600 bash "$H/$s" ;; esac
done
bash "$H/collect_all.sh"
