#!/bin/sh
# yc_ompi_rank.sh CMD...: map Open MPI's per-process variables onto torch's env:// ones, then exec CMD.
export RANK=$OMPI_COMM_WORLD_RANK WORLD_SIZE=$OMPI_COMM_WORLD_SIZE LOCAL_RANK=$OMPI_COMM_WORLD_LOCAL_RANK
exec "$@"
