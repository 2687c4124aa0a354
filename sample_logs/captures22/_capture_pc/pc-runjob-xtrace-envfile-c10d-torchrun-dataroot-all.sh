#!/bin/bash
# Site wrapper runjob.sh (bash with `set -x`, `exec >> logs/run-<jobid>.log 2>&1`): sources job.env, then runs torchrun
# with a c10d rendezvous endpoint (localhost:29947, --nnodes 1, --nproc-per-node 3).
# Planted: job.env was edited for the new dataset release (DATA_ROOT=.../datasets/clicks-v6) but only clicks-v5 is on
# this machine's data volume.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY pc_make_data.py datasets/clicks-v5 3 2000
mkdir -p logs
cat > job.env <<EOE
JOB_ID=48377
DATA_ROOT=$J/datasets/clicks-v6
STEPS=200
NPROC=3
EOE
cat > runjob.sh <<'EOR'
#!/bin/bash
set -euo pipefail
. ./job.env
exec >> logs/run-$JOB_ID.log 2>&1
set -x
date '+%F %T'
hostname
python -c 'import torch; print(torch.__version__)'
torchrun --nnodes 1 --nproc-per-node $NPROC --rdzv-backend c10d --rdzv-endpoint localhost:29947 --rdzv-id $JOB_ID \
  pc_train.py --data "$DATA_ROOT" --steps $STEPS --fmt plain
date '+%F %T'
EOR
timeout -s TERM 120 nice bash runjob.sh
rc runjob $?
