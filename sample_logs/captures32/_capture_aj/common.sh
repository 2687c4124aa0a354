# sourced by every aj-*.sh capture script (adapted from the round-Y yc harness): re-exec inside a private
# network namespace (loopback only) and a private mount namespace, make the scratch dir $J=/home/user/capZ/jobs/<name>
# with the helper programs copied, cd there. The job starts from a clean environment (env -i: PATH, HOME=/home/user,
# LANG, TERM only), so that nothing of the collector's session leaks into a log that prints its environment.
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb \
    JOBS="${JOBS:-/home/user/capZ/jobs}" unshare -n -m sh -c 'ip link set lo up && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=${JOBS:-/home/user/capZ/jobs}
V=/home/user/capZ/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/aj_*; do [ -e "$f" ] && cp -r "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS JOBS
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2"; }
