# sourced by every bp-*.sh capture script (adapted from roundAI's _capture_bl harness): re-exec inside a private
# network namespace (loopback only), a private mount namespace and a UTS namespace (hostname trn-d04) from a clean
# environment, make the scratch dir $J=/home/user/capBP/jobs/<name> with the helper programs copied, cd there.
# Uses the torch 2.13.0+cpu venv of an earlier round read-only (/home/user/capBH/venv; no package changed) plus
# tqdm and PyYAML installed with pip --target into /home/user/capBP/site (on PYTHONPATH).
set -u
if [ -z "${X_NETNS:-}" ]; then
  exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/user LANG=C.UTF-8 TERM=dumb \
    unshare -n -m -u sh -c 'ip link set lo up && hostname trn-d04 && printf "127.0.0.1 localhost\\n127.0.1.1 trn-d04\\n" > /tmp/bp_hosts && mount --bind /tmp/bp_hosts /etc/hosts && X_NETNS=1 exec bash "$0" "$@"' "$0" "$@"
fi
HERE=$(dirname "$(readlink -f "$0")")
NAME=$(basename "$0" .sh)
JOBS=/home/user/capBP/jobs
V=/home/user/capBH/venv/bin
PY=$V/python
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 PATH=$V:$PATH PYTHONPATH=/home/user/capBP/site
J=$JOBS/$NAME; rm -rf "$J"; mkdir -p "$J"
for f in "$HERE"/bp_*; do [ -e "$f" ] && cp -r "$f" "$J"/; done
cd "$J"; unset OLDPWD X_NETNS
rc() { echo "$2" > "$J/exit_code.$1"; echo "$NAME: $1 exit $2" >&2; }
