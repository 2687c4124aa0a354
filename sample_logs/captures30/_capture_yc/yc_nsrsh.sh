#!/bin/sh
# yc_nsrsh.sh HOST CMD...: Open MPI's plm_rsh_agent for the namespace "nodes": instead of ssh, enter HOST's UTS +
# mount namespaces (pid in nodes/HOST.pid) and run the remote command line there with /bin/sh.
host=$1; shift
exec nsenter -t "$(cat "$(dirname "$0")/nodes/$host.pid")" -u -m -- /bin/sh -c "$*"
