# sourced by every ag-*.sh capture script (adapted from the previous round's harness): re-exec inside a private
# network namespace (loopback only), a private mount namespace and a private UTS namespace (hostname `vm`), make
# the scratch dir $J=/home/user/capY/jobs/<name> with the helper programs copied, cd there. Clean environment.
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb \
    JOBS="${JOBS:-/home/user/capY/jobs}" unshare -n -m -u sh -c 'ip link set lo up && hostname vm && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=${JOBS:-/home/user/capY/jobs}
V=/home/user/capY/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/ag_*.py; do [ -e "$f" ] && cp "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS JOBS
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2"; }
