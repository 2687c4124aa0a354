#!/bin/bash
# captures6 p-* incidents.  usage: capture.sh OUT NAME...   (scratch: $JOBS/<name>, default /home/user/jobs)
set -u
# Private network namespace with only loopback up (torch's TCPStore / c10d server binds the wildcard
# address), and a private mount namespace for the read-only / tmpfs mounts of two incidents.
if [ -z "${P_NETNS:-}" ]; then
  exec unshare -n -m sh -c 'ip link set lo up && P_NETNS=1 exec "$0" "$@"' "$0" "$@"
fi
OUT=$(readlink -f "$1"); shift
HERE=$(dirname "$(readlink -f "$0")")
JOBS=${JOBS:-/home/user/jobs}
V=/home/user/venv/bin
PY=$V/python
TR=$V/torchrun
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH

prep() { J=$JOBS/$1; rm -rf "$J"; mkdir -p "$J"; cp "$HERE"/*.py "$J"/ 2>/dev/null; cp "$HERE"/*.json "$J"/ 2>/dev/null; cd "$J"; }
rc() { echo "$2" > "$J/exit_codes.txt.$1"; echo "$1 exit $2"; }
. "$HERE"/scenarios.sh

for n in "$@"; do
  s_$n "$n"
  rm -rf "$OUT/$n"; mkdir -p "$OUT/$n"
  (cd "$JOBS/$n" && find . \( -name '*.log' -o -name 'error.json' -o -name '*.out' -o -name 'stdout' -o -name 'stderr' -o -path './pl_logs/*' -type f \) -not -path './data/*' -not -path './shards*' | while read f; do mkdir -p "$OUT/$n/$(dirname "$f")"; cp "$f" "$OUT/$n/$f"; done)
done
