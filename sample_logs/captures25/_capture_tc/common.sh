# sourced by every tc-*.sh capture script (adapted from the round-P rc / round-O qc harness): re-exec inside a private
# network namespace (loopback only) and a private mount namespace, make the scratch dir $J=/home/user/jobsR/<name>
# with the helper programs copied, cd there.
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec unshare -n -m sh -c 'ip link set lo up && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=${JOBS:-/home/user/jobsR}
V=/home/user/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"; cp "$HERE"/*.py "$HERE"/*.yaml "$HERE"/*.pl "$HERE"/*.js "$J"/ 2>/dev/null; cd "$J"
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2"; }
