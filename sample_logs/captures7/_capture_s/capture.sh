#!/bin/bash
# captures7 s-* incidents.  usage: capture.sh NAME...   (scratch: $JOBS/<name>, default /home/user/jobs)
# Runs each scenario function s_<name> (scenarios.sh) in its scratch dir, inside a private network
# namespace with only loopback up and a private mount namespace. Copying the logs out is done by
# collect.sh (per incident, the files listed there).
set -u
if [ -z "${S_NETNS:-}" ]; then
  exec unshare -n -m sh -c 'ip link set lo up && S_NETNS=1 exec "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
JOBS=${JOBS:-/home/user/jobs}
V=/home/user/venv/bin
PY=$V/python
TR=$V/torchrun
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
prep() { J=$JOBS/$1; rm -rf "$J"; mkdir -p "$J"; cp "$HERE"/*.py "$HERE"/*.sh "$HERE"/*.yaml "$J"/ 2>/dev/null; cd "$J"; }
rc() { echo "$2" > "$J/exit_codes.txt.$1"; echo "$1 exit $2"; }
. "$HERE"/scenarios.sh
for n in "$@"; do s_$n "$n"; done
