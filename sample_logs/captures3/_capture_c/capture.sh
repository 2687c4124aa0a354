#!/bin/bash
# Capture the c-* incidents: capture.sh OUT SCENARIO...
# Each job runs in /home/user/jobs/<scenario>/ with these scripts copied there; afterwards:
#   (repository root) PYENV=/home/user/venv .venv/bin/python sample_logs/_capture/neutral_paths.py
#   /home/user/venv/bin/python sample_logs/captures3/_capture_c/gen_meta.py OUT
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1; shift
PY=${PY:-/home/user/venv/bin/python}
JOBS=${JOBS:-/home/user/jobs}
export PYTHONUNBUFFERED=1
prep() { rm -rf "$JOBS/$1"; mkdir -p "$JOBS/$1"; cp "$HERE"/*.py "$JOBS/$1/"; cd "$JOBS/$1"; }
keep() { local s=$1; shift; mkdir -p "$OUT/$s"; for f in "$@"; do mkdir -p "$OUT/$s/$(dirname "$f")"; cp -r "$f" "$OUT/$s/$(dirname "$f")/"; done; }

s_c-spawn-label-oob() {
  prep c-spawn-label-oob
  $PY make_data.py data --bad-label-index 97
  nice $PY spawn_train.py --world 3 --port 29711 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-spawn-label-oob console.log
}
s_c-spawn-corrupt-npy-logfiles() {
  prep c-spawn-corrupt-npy-logfiles
  $PY make_data.py data --corrupt-index 62
  nice $PY spawn_train.py --world 4 --port 29712 --log-dir logs --batch-size 4 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-spawn-corrupt-npy-logfiles console.log logs
}
s_c-spawn-missing-data() {
  prep c-spawn-missing-data
  $PY make_data.py data
  nice $PY spawn_train.py --world 3 --port 29713 --data-dir /home/user/jobs/datasets/cifar-npy-v2/train > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-spawn-missing-data console.log
}
s_c-spawn-silent-hang-logfiles() {
  prep c-spawn-silent-hang-logfiles
  $PY make_data.py data
  nice $PY spawn_train.py --world 3 --port 29714 --log-dir logs --fault hang --fail-rank 2 --fail-step 4 --pg-timeout 15 --log-every 1 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-spawn-silent-hang-logfiles console.log logs
}
s_c-spawn-nan-split-streams() {
  # rerun (at most 8 tries) until mp.spawn reports the initiator (rank 3) itself;
  # see c-spawn-nan-blames-peer for the other outcome. Tries counted in tries.txt
  for t in 1 2 3 4 5 6 7 8; do
    prep c-spawn-nan-split-streams
    $PY make_data.py data --inf-index 103
    nice $PY spawn_train.py --world 4 --port 29715 --fault nan_check --batch-size 4 --epochs 3 --log-every 3 > stdout.log 2> stderr.log; echo "exit $?" > exit_code.txt
    echo "$t" > tries.txt
    grep -q -- "-- Process 3 terminated" stderr.log && break
  done
  keep c-spawn-nan-split-streams stdout.log stderr.log
}
s_c-spawn-nan-blames-peer() {
  # same job as c-spawn-nan-split-streams, one combined console; rerun (at most 24 tries)
  # until mp.spawn reports a process other than the initiator (rank 3): the tries are
  # counted in tries.txt
  for t in $(seq 1 24); do
    prep c-spawn-nan-blames-peer
    $PY make_data.py data --inf-index 103
    nice $PY spawn_train.py --world 4 --port 29717 --fault nan_check --batch-size 4 --epochs 3 --log-every 3 > console.log 2>&1; echo "exit $?" > exit_code.txt
    echo "$t" > tries.txt
    grep -q -- "-- Process 3 terminated" console.log || break
  done
  keep c-spawn-nan-blames-peer console.log
}
s_c-spawn-fd-limit() {
  prep c-spawn-fd-limit
  ( ulimit -n 128; nice $PY fd_train.py --world 2 --num-workers 2 --port 29718 > console.log 2>&1; echo "exit $?" > exit_code.txt )
  keep c-spawn-fd-limit console.log
}
pl_keep_logdir() {  # metrics.csv and hparams.yaml of the CSVLogger dirs (checkpoints are binary: not kept)
  local s=$1; find lightning_logs -name '*.csv' -o -name '*.yaml' | sort | while read -r f; do keep "$s" "$f"; done
}
s_c-pl-callback-keyerror() {
  prep c-pl-callback-keyerror
  nice $PY pl_train.py --strategy ddp --devices 3 --empty-batch 1:5 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-pl-callback-keyerror console.log; pl_keep_logdir c-pl-callback-keyerror
}
s_c-pl-resume-weights-only() {
  prep c-pl-resume-weights-only
  # an earlier run (healthy, 1 epoch) writes the checkpoint; its console is not kept
  nice $PY pl_train.py --strategy ddp --devices 2 --epochs 1 --hparams-dataclass > first_run.log 2>&1; echo "first run exit $?" > exit_code.txt
  nice $PY pl_train.py --strategy ddp_spawn --devices 2 --epochs 2 --hparams-dataclass \
      --resume lightning_logs/tiny/version_0/checkpoints/last.ckpt > console.log 2>&1; echo "exit $?" >> exit_code.txt
  keep c-pl-resume-weights-only console.log; pl_keep_logdir c-pl-resume-weights-only
}
s_c-pl-val-exception-split() {
  prep c-pl-val-exception-split
  nice $PY pl_train.py --strategy ddp_spawn --devices 3 --val-label4 2:3 > stdout.log 2> stderr.log; echo "exit $?" > exit_code.txt
  keep c-pl-val-exception-split stdout.log stderr.log
}
s_c-pl-healthy-warnings() {
  prep c-pl-healthy-warnings
  nice $PY pl_train.py --strategy ddp --devices 2 --epochs 3 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep c-pl-healthy-warnings console.log; pl_keep_logdir c-pl-healthy-warnings
}
for s in "$@"; do ( "s_$s" ); echo "== $s done: $(cat "$JOBS/$s/exit_code.txt" | tr '\n' ' ')"; done
