# sourced by every by-*.sh capture script (adapted from the previous round's harness): re-exec inside a private
# network namespace (loopback only), a private mount namespace and a UTS namespace from a clean environment, make
# the scratch dir $J=/home/user/capBY/jobs/<name> with the helper programs copied, cd there.
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i BY_VENV=${BY_VENV:-} PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb \
    unshare -n -m -u sh -c 'ip link set lo up && hostname ${BY_HOST:-ml-trn04} && printf "127.0.0.1 localhost\\n127.0.1.1 ${BY_HOST:-ml-trn04}\\n127.0.2.1 cn-b01\\n127.0.2.2 cn-b02\\n" > /tmp/by_hosts_$$ && mount --bind /tmp/by_hosts_$$ /etc/hosts && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=/home/user/capBY/jobs
V=${BY_VENV:-/home/user/capBY/venv}; V=${V:-/home/user/capBY/venv}/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/by_*; do [ -e "$f" ] && cp -r "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2" >&2; }
