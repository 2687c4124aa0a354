# sourced by every bx-*.sh capture script (adapted from roundAJ's _capture_bq harness): re-exec inside a private
# network namespace (loopback only), a private mount namespace and a UTS namespace (hostname ${BX_HOST:-ml-a03}) from a
# clean environment, make the scratch dir $J=/home/user/capBX/jobs/<name> with the helper programs copied, cd there.
# Uses the torch 2.13.0+cpu venv of an earlier round read-only (/home/user/capBI/venv; no package changed).
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb BX_HOST=${BX_HOST:-ml-a03} \
    unshare -n -m -u sh -c 'ip link set lo up && hostname $BX_HOST && printf "127.0.0.1 localhost\\n127.0.1.1 ml-a03\\n127.0.1.2 ml-a04\\n127.0.1.3 gpu-w17\\n" > /tmp/bx_hosts_$$ && mount --bind /tmp/bx_hosts_$$ /etc/hosts && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=/home/user/capBX/jobs
V=/home/user/capBI/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/bx_*; do [ -e "$f" ] && cp -r "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS BX_HOST
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2" >&2; }
