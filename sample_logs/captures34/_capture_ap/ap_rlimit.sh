#!/bin/bash
# per-rank resource wrapper: applies the address-space limit (KB) listed for this rank in rank-limits.conf
lim=$(awk -v r="${OMPI_COMM_WORLD_RANK:-0}" '$1 == r {print $2}' rank-limits.conf)
[ -n "$lim" ] && ulimit -v "$lim"
exec "$@"
