#!/bin/bash
# Capture the d-* incidents: capture.sh OUT SCENARIO...
# Each job runs in /home/user/jobs/<scenario>/ with these scripts copied there; afterwards:
#   (repository root) PYENV=/home/user/venv .venv/bin/python sample_logs/_capture/neutral_paths.py
#   /home/user/venv/bin/python sample_logs/captures3/_capture_d/gen_meta.py OUT
# Needs: apt-get install openmpi-bin (Open MPI 4.1.4), pip install "ray[train]==2.60.0".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1; shift
VENV=${VENV:-/home/user/venv}
PY=$VENV/bin/python
JOBS=${JOBS:-/home/user/jobs}
export PYTHONUNBUFFERED=1
prep() { rm -rf "$JOBS/$1"; mkdir -p "$JOBS/$1"; cp "$HERE"/*.py "$HERE"/*.sh "$JOBS/$1/"; cd "$JOBS/$1"; }
keep() { local s=$1; shift; mkdir -p "$OUT/$s"; for f in "$@"; do mkdir -p "$OUT/$s/$(dirname "$f")"; cp -r "$f" "$OUT/$s/$(dirname "$f")/"; done; }
# mpirun as root on this 2-core box; 4 ranks; env for the gloo rendezvous
mpi() { local port=$1; shift
  nice mpirun --allow-run-as-root --oversubscribe -np 4 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=$port \
    -x PYTHONUNBUFFERED=1 "$@"; }

s_d-mpi-tag-jsonl-truncated() {
  prep d-mpi-tag-jsonl-truncated
  $PY make_shards.py data --world 4 --truncate-line 2:75
  mpi 29811 --tag-output $PY dtrain.py --steps 20 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-mpi-tag-jsonl-truncated console.log
}
s_d-mpi-outfile-sigkill() {
  prep d-mpi-outfile-sigkill
  $PY make_shards.py data --world 4
  mpi 29812 --output-filename logs:nocopy $PY dtrain.py --steps 20 --fault sigkill --fail-rank 1 --fail-step 9 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-mpi-outfile-sigkill console.log logs
}
s_d-mpi-timestamp-sigbus() {
  prep d-mpi-timestamp-sigbus
  $PY make_shards.py data --world 4 --features
  mpi 29813 --tag-output --timestamp-output -x PYTHONFAULTHANDLER=1 $PY dtrain.py --steps 20 --features \
    --fault sigbus --fail-rank 3 --fail-step 11 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-mpi-timestamp-sigbus console.log
}
s_d-mpi-nccl-backend-all() {
  prep d-mpi-nccl-backend-all
  $PY make_shards.py data --world 4
  mpi 29814 --tag-output $PY dtrain.py --steps 20 --backend nccl > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-mpi-nccl-backend-all console.log
}
s_d-mpi-metric-shape-split() {
  prep d-mpi-metric-shape-split
  $PY make_shards.py data --world 4
  mpi 29815 --tag-output $PY dtrain.py --steps 20 --fault metric_shape --fail-rank 1 --fail-step 8 --pg-timeout 30 \
    > stdout.log 2> stderr.log; echo "exit $?" > exit_code.txt
  keep d-mpi-metric-shape-split stdout.log stderr.log
}
# Ray runs in a private network namespace holding only loopback (its servers bind to every
# interface otherwise): nothing but 127.0.0.1 exists to listen on or talk to. HOME is the
# scratch dir (Ray writes and names $HOME/.ray/auth_token); no usage stats.
rayjob() { RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home unshare -n sh -c 'ip link set lo up && exec nice "$@"' sh "$@"; }
raytmp() { rm -rf /tmp/ray; mkdir -p "$PWD/home"; }

s_d-mpi-healthy-timestamp() {
  prep d-mpi-healthy-timestamp
  $PY make_shards.py data --world 4
  mpi 29816 --tag-output --timestamp-output $PY dtrain.py --steps 20 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-mpi-healthy-timestamp console.log
}

s_d-ray-train-token-oob() {
  prep d-ray-train-token-oob; raytmp
  $PY make_shards.py data --world 3 --bad-token 1:90:100
  rayjob $PY ray_train.py --workers 3 --steps 20 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-ray-train-token-oob console.log
}
s_d-ray-train-worker-sigkill() {
  prep d-ray-train-worker-sigkill; raytmp
  $PY make_shards.py data --world 3
  rayjob $PY ray_train.py --workers 3 --steps 20 --fault sigkill --fail-rank 2 --fail-step 9 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-ray-train-worker-sigkill console.log
}
s_d-ray-train-healthy-warnings() {
  prep d-ray-train-healthy-warnings; raytmp
  $PY make_shards.py data --world 2
  rayjob $PY ray_train.py --workers 2 --steps 20 --warnings > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-ray-train-healthy-warnings console.log
}
s_d-ray-actors-eval-keyerror() {
  prep d-ray-actors-eval-keyerror; raytmp
  $PY make_shards.py data --world 3
  rayjob $PY ray_actors.py --world 3 --port 29831 --steps 20 --fault eval_keyerror --fail-rank 0 --fail-step 10 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-ray-actors-eval-keyerror console.log
}
s_d-bashloop-stale-store-port() {
  prep d-bashloop-stale-store-port
  $PY make_shards.py data --world 4
  $PY stale_store.py 29841 120 & stale=$!      # an earlier job's store, still on the port
  sleep 5
  PY=$PY ./launch_ranks.sh 4 29841 dtrain.py --steps 20 --pg-timeout 20 \
    --log-format '%(asctime)s %(levelname)s %(message)s'; echo "exit $?" > exit_code.txt
  kill $stale; wait $stale 2>/dev/null
  keep d-bashloop-stale-store-port rank0.out rank0.err rank1.out rank1.err rank2.out rank2.err rank3.out rank3.err
}
s_d-torchrun-role-filter-hidden-rank() {
  prep d-torchrun-role-filter-hidden-rank
  $PY make_shards.py data --world 4 --bad-token 1:75:100
  nice $VENV/bin/torchrun --nnodes 1 --nproc-per-node 4 --master-port 29851 --role trainer --tee 3 \
    --local-ranks-filter 0,3 dtrain.py --steps 20 > console.log 2>&1; echo "exit $?" > exit_code.txt
  keep d-torchrun-role-filter-hidden-rank console.log
}
for s in "$@"; do "s_$s"; done
