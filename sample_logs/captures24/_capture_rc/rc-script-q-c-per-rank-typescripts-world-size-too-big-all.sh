#!/bin/bash
# Bash launcher wrapping every rank in util-linux `script -q -c` (a pty per rank, so the rank's output is a terminal
# typescript with CR LF line ends) writing typescripts/rank<R>.typescript; ranks started with `&` from a loop over a
# host-local ranks list, reaped with `wait`. The job's launch profile (job.env, shared by every rank) says
# WORLD_SIZE=4 while the ranks list only has 3 entries. Process-group timeout 30 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p typescripts
printf 'WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29577\n' > job.env
printf '0\n1\n2\n' > ranks.list
set -a; . ./job.env; set +a
for r in $(cat ranks.list); do
  RANK=$r LOCAL_RANK=$r script -q -e -c "timeout -s TERM 120 nice $PY rc_train.py --rows 800 --pg-timeout 30" \
    typescripts/rank$r.typescript > /dev/null < /dev/null &
done
wait
rc launcher $?
