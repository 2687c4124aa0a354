#!/bin/sh
# vc_pmi_rank.sh: map MPICH Hydra's PMI_RANK / PMI_SIZE onto torch's RANK / WORLD_SIZE for a non-MPI gloo job
export RANK="$PMI_RANK" WORLD_SIZE="$PMI_SIZE" LOCAL_RANK="${MPI_LOCALRANKID:-$PMI_RANK}"
exec "$@"
