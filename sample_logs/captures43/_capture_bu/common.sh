# sourced by every bu-*.sh capture script (adapted from roundAJ's _capture_bp harness): re-exec inside a private
# network namespace (loopback only), a private mount namespace and a UTS namespace (hostname trn-f03) from a clean
# environment, make the scratch dir $J=/home/user/capBU/jobs/<name> with the helper programs copied, cd there.
# Uses the torch 2.13.0+cpu venv of an earlier round read-only (/home/user/capBI/venv; no package changed).
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb \
    unshare -n -m -u sh -c 'ip link set lo up && hostname trn-f03 && printf "127.0.0.1 localhost\\n127.0.1.1 trn-f03\\n127.0.1.5 trn-f05\\n127.0.1.6 trn-f06\\n" > /tmp/bu_hosts && mount --bind /tmp/bu_hosts /etc/hosts && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=/home/user/capBU/jobs
V=/home/user/capBI/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH PYTHONPATH=/home/user/capBU/jobs/$NAME/bu_lib
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/bu_*; do [ -e "$f" ] && cp -r "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2" >&2; }
