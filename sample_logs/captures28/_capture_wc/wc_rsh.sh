#!/bin/bash
# wc_rsh.sh HOST CMD...: the site's "remote shell" for the namespace nodes: enters HOST's UTS + mount namespaces
# (holder pid in nodes/HOST.pid), sources the node's login environment nodes/HOST.env, runs CMD in the job dir.
H=$1; shift
exec nsenter -t "$(cat "nodes/$H.pid")" -u -m -- env -C "$PWD" bash -c 'set -a; . "nodes/$0.env"; set +a; exec "$@"' "$H" "$@"
