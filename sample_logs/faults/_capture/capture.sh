#!/bin/bash
# Capture the sample_logs/faults scenarios.   capture.sh OUT [SCENARIO ...]
# Every job runs in /home/user/job/<scenario> with the scripts copied there; logs are
# copied unchanged into OUT/<scenario>/.  Needs root (tmpfs mounts, setpriv to nobody).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(cd "${1:?OUT}" && pwd); shift
VENV=${VENV:-/home/user/venv}
# the venv is reached through /home/user/venv so that no /work path shows in a traceback
# (a bind mount, not a symlink: torch's launcher logs print realpaths)
mkdir -p /home/user/venv; mountpoint -q /home/user/venv || mount --bind "$VENV" /home/user/venv
PY=/home/user/venv/bin/python
BIN=/home/user/venv/bin
export PATH="$BIN:$PATH" OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
JOBROOT=/home/user/job
# the venv's entry points have shebangs of the machine they were installed on: run them as modules of /home/user/venv's python
torchrun() { "$PY" -m torch.distributed.run "$@"; }
accelerate() { "$PY" -m accelerate.commands.accelerate_cli "$@"; }
deepspeed() { "$PY" -m deepspeed.launcher.runner "$@"; }

job() {  # job SLUG: fresh scratch dir with the scripts, cd into it
  J=$JOBROOT/$1; rm -rf "$J"; mkdir -p "$J"; cp "$HERE"/*.py "$HERE"/per_rank.sh "$HERE"/*.json "$HERE"/*.yaml "$J"/ 2>/dev/null; cd "$J"
  D=$OUT/$1; mkdir -p "$D"
}
keep() { for f in "$@"; do mkdir -p "$D/$(dirname "$f")"; cp -a "$f" "$D/$f"; done; }
tr4() { torchrun --nnodes 1 --nproc-per-node "${NP:-4}" --master-port "${PORT:-29611}" "$@"; }
perrank() {  # perrank NP SCRIPT ARGS...: torchrun, each worker's stdout+stderr -> rankN.log, launcher -> launcher.log
  local np=$1 script=$2; shift 2
  RANK_LOG_DIR=$PWD PYTHON=$PY TRAIN_PY=$PWD/$script torchrun --nnodes 1 --nproc-per-node "$np" --master-port "${PORT:-29611}" \
    --no-python sh "$PWD/per_rank.sh" "$@" > launcher.log 2>&1
}

. "$HERE/scenarios.sh"
if [ $# -eq 0 ]; then set -- $(declare -F | awk '$3 ~ /^s_/ {sub(/^s_/, "", $3); gsub(/_/, "-", $3); print $3}'); fi
for s in "$@"; do echo "== $s"; ( "s_${s//-/_}" ); done
