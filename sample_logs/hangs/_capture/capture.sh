#!/usr/bin/env bash
# Recreate the hang captures of sample_logs/hangs/.
#
#   sample_logs/hangs/_capture/capture.sh OUT_DIR [SCENARIO ...]
#
# Every scenario is a real run of hang_train.py (gloo, CPU) under torchrun, in a
# scratch job dir $JOBS/<scenario> (default /home/user/job) holding a copy of the
# trainer as train.py, so tracebacks read /home/user/job/<scenario>/train.py.
# The logs are copied unchanged into OUT_DIR/<scenario>/; README.md, truth.json
# and .correlatorignore there are kept (written against the committed capture).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PYENV=${PYENV:-/home/user/venv}
export PYTHON=$PYENV/bin/python
TORCHRUN=$PYENV/bin/torchrun
JOBS=${JOBS:-/home/user/job}
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [SCENARIO ...]" >&2; exit 2; }
OUT=$(realpath -m "$1"); shift

start() {
  name=$1
  job=$JOBS/$name
  rm -rf "$job"; mkdir -p "$job"
  cp "$HERE/hang_train.py" "$job/train.py"; cp "$HERE/worker.sh" "$job/worker.sh"
  dest=$OUT/$name; mkdir -p "$dest"
  find "$dest" -mindepth 1 -maxdepth 1 ! -name README.md ! -name truth.json ! -name .correlatorignore ! -name fr_trace.txt -exec rm -rf {} +
  echo "== $name"; cd "$job" || exit 1
}
# layouts: (a) tee console  (b) --log-dir tree + launcher.log  (c) rank<N>.log by logging + launcher.log
#          (d) worker-<N>.log via worker.sh + launcher.log  (e) tee console + --log-dir tree
TR="timeout 90 $TORCHRUN --standalone --nproc-per-node"
tee_run()    { n=$1; shift; $TR "$n" --tee 3 train.py "$@" 2>&1 | tee console.log > /dev/null; cp console.log "$dest/"; }
logdir_run() { n=$1; shift; $TR "$n" --log-dir logs --redirects 3 train.py "$@" > launcher.log 2>&1; cp -r logs launcher.log "$dest/"; }
rank_run()   { n=$1; shift; $TR "$n" train.py --log-file 'rank%d.log' "$@" > launcher.log 2>&1; cp rank*.log launcher.log "$dest/"; }
# (e) both: the --tee console and the --log-dir tree of the same streams
both_run()   { n=$1; shift; $TR "$n" --log-dir logs --tee 3 train.py "$@" 2>&1 | tee console.log > /dev/null; cp -r logs console.log "$dest/"; }
worker_run() { n=$1; shift; $TR "$n" --no-python sh worker.sh "$@" > launcher.log 2>&1; cp worker-*.log launcher.log "$dest/"; }
fr()         { [ -d fr_dump ] && cp -r fr_dump "$dest/"; fr_analyse "$dest"; }
# the official analyser on a dump set, as is and on a copy with pg_config re-keyed (fr_rekey.py)
fr_analyse() {
  d=$1; tmp=$(mktemp -d)
  { echo "\$ python -m torch.distributed.flight_recorder.fr_trace fr_dump --allow-incomplete-ranks"
    (cd "$d" && $PYTHON -m torch.distributed.flight_recorder.fr_trace fr_dump --allow-incomplete-ranks 2>&1)
    echo; echo "\$ python -m torch.distributed.flight_recorder.fr_trace fr_dump -j --allow-incomplete-ranks"
    (cd "$d" && $PYTHON -m torch.distributed.flight_recorder.fr_trace fr_dump -j --allow-incomplete-ranks 2>&1)
    $PYTHON "$HERE/fr_rekey.py" "$d/fr_dump" "$tmp/fr_dump"
    echo; echo "### same dumps, pg_config re-keyed '' -> '0' by _capture/fr_rekey.py (nothing else changed)"
    echo "\$ python -m torch.distributed.flight_recorder.fr_trace fr_dump_rekeyed --allow-incomplete-ranks"
    (cd "$tmp" && $PYTHON -m torch.distributed.flight_recorder.fr_trace fr_dump --allow-incomplete-ranks 2>&1)
    echo; echo "\$ python -m torch.distributed.flight_recorder.fr_trace fr_dump_rekeyed -j --allow-incomplete-ranks"
    (cd "$tmp" && $PYTHON -m torch.distributed.flight_recorder.fr_trace fr_dump -j --allow-incomplete-ranks 2>&1)
  } > "$d/fr_trace.txt"; rm -rf "$tmp"
}
fr-analyse-all() { for d in "$OUT"/fr-*/; do fr_analyse "${d%/}"; done; }

# --- gloo all_reduce timeout ("Timed out waiting ...ms")
allreduce-stall-same-step-tee()    { start $FUNCNAME; tee_run 3 --mode stall_same --culprit 1 --fail-step 5; }
allreduce-stall-behind-logdir()    { start $FUNCNAME; logdir_run 3 --mode stall_behind --culprit 2 --fail-step 4; }
allreduce-busy-printing-rankfiles(){ start $FUNCNAME; rank_run 3 --mode busy --culprit 0 --fail-step 4; }
allreduce-short-shard-workers()    { start $FUNCNAME; worker_run 3 --mode short_shard --culprit 1 --fail-step 5; }
allreduce-thread-error-tee()       { start $FUNCNAME; tee_run 3 --mode thread_error --culprit 2 --fail-step 4; }
allreduce-stall-behind-workers()   { start $FUNCNAME; worker_run 4 --mode stall_behind --culprit 3 --fail-step 3 --step-time 0.1; }
allreduce-short-shard-tee()        { start $FUNCNAME; tee_run 3 --mode short_shard --culprit 2 --fail-step 4; }
allreduce-thread-error-rankfiles() { start $FUNCNAME; rank_run 3 --mode thread_error --culprit 1 --fail-step 5; }
# --- gloo barrier timeout
barrier-stall-same-step-rankfiles(){ start $FUNCNAME; rank_run 3 --wait barrier --mode stall_same --culprit 2 --fail-step 4; }
barrier-stall-behind-workers()     { start $FUNCNAME; worker_run 3 --wait barrier --mode stall_behind --culprit 1 --fail-step 4; }
barrier-busy-printing-tee()        { start $FUNCNAME; tee_run 3 --wait barrier --mode busy --culprit 1 --fail-step 3; }
barrier-short-shard-logdir()       { start $FUNCNAME; logdir_run 3 --wait barrier --mode short_shard --culprit 0 --fail-step 4; }
# --- monitored_barrier timeout
mbarrier-stall-same-step-tee()     { start $FUNCNAME; tee_run 3 --wait monitored_barrier --mode stall_same --culprit 2 --fail-step 4; }
mbarrier-busy-printing-workers()   { start $FUNCNAME; worker_run 3 --wait monitored_barrier --mode busy --culprit 1 --fail-step 3; }
mbarrier-thread-error-logdir()     { start $FUNCNAME; logdir_run 3 --wait monitored_barrier --mode thread_error --culprit 1 --fail-step 4; }
mbarrier-stall-behind-rankfiles()  { start $FUNCNAME; rank_run 3 --wait monitored_barrier --mode stall_behind --culprit 2 --fail-step 5; }
mbarrier-short-shard-tee()         { start $FUNCNAME; tee_run 3 --wait monitored_barrier --mode short_shard --culprit 1 --fail-step 4; }
barrier-thread-error-workers()     { start $FUNCNAME; worker_run 3 --wait barrier --mode thread_error --culprit 0 --fail-step 4; }
# --- store key wait at init_process_group
store-never-init-tee()             { start $FUNCNAME; tee_run 3 --mode never_init --culprit 2; }
store-late-init-rankfiles()        { start $FUNCNAME; rank_run 3 --mode late_init --culprit 1 --stall 25; }
store-never-init-logdir()          { start $FUNCNAME; logdir_run 3 --mode never_init --culprit 1; }
store-exit-before-init-logdir()    { start $FUNCNAME; logdir_run 3 --mode exit_before_init --culprit 2; }
store-late-init-workers()          { start $FUNCNAME; worker_run 3 --mode late_init --culprit 0 --stall 25; }
# --- elastic agent rendezvous (c10d backend): node-1 starts after node-0's join timeout
rdzv-node-late-tee() {
  start $FUNCNAME; mkdir -p node-0 node-1
  RDZV="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29611 --rdzv-id job-4410 --rdzv-conf join_timeout=15"
  timeout 60 $TORCHRUN $RDZV --node-rank 0 --tee 3 train.py > node-0/console.log 2>&1 &
  sleep 25
  timeout 60 $TORCHRUN $RDZV --node-rank 1 --tee 3 train.py > node-1/console.log 2>&1
  wait; cp -r node-0 node-1 "$dest/"
}
rdzv-never-joined-logdir() {
  start $FUNCNAME
  timeout 60 $TORCHRUN --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29612 \
    --rdzv-id job-4411 --rdzv-conf join_timeout=15 --log-dir logs --redirects 3 train.py > launcher.log 2>&1
  cp launcher.log "$dest/"; [ -d logs ] && cp -r logs "$dest/"
}
# --- the same config error on every rank
config-error-all-ranks-rankfiles() { start $FUNCNAME; rank_run 3 --mode config_error; }
config-error-all-ranks-workers()   { start $FUNCNAME; worker_run 3 --mode config_error; }
config-error-all-ranks-tee()       { start $FUNCNAME; tee_run 3 --mode config_error; }
config-error-all-ranks-logdir()    { start $FUNCNAME; logdir_run 3 --mode config_error; }
# --- killed from outside: SIGTERM to the torchrun agent mid-run
external-sigterm-tee() {
  start $FUNCNAME
  timeout -s TERM 9 $TORCHRUN --standalone --nproc-per-node 3 --tee 3 train.py --steps 200 2>&1 | tee console.log > /dev/null
  cp console.log "$dest/"
}
external-sigterm-logdir() {
  start $FUNCNAME
  $TORCHRUN --standalone --nproc-per-node 3 --log-dir logs --redirects 3 train.py --steps 200 > launcher.log 2>&1 &
  agent=$!; sleep 10; kill -TERM $agent; wait $agent; cp -r logs launcher.log "$dest/"
}
external-sigterm-rankfiles() {
  start $FUNCNAME
  $TORCHRUN --standalone --nproc-per-node 3 train.py --log-file 'rank%d.log' --steps 200 > launcher.log 2>&1 &
  agent=$!; sleep 10; kill -TERM $agent; wait $agent; cp rank*.log launcher.log "$dest/"
}
external-sigterm-workers() {
  start $FUNCNAME
  $TORCHRUN --standalone --nproc-per-node 3 --no-python sh worker.sh --steps 200 > launcher.log 2>&1 &
  agent=$!; sleep 10; kill -TERM $agent; wait $agent; cp worker-*.log launcher.log "$dest/"
}
allreduce-short-shard-first-step-rankfiles() { start $FUNCNAME; rank_run 3 --mode short_shard --culprit 2 --fail-step 1; }
# --- (e) one stream, two copies: the trainer logs to stdout, tracebacks go to stderr; the
#     --tee console interleaves both, the --log-dir tree splits them (issue 21 section 1)
allreduce-thread-error-both()      { start $FUNCNAME; both_run 3 --log-stream stdout --mode thread_error --culprit 1 --fail-step 5; }
allreduce-stall-same-step-both()   { start $FUNCNAME; both_run 3 --log-stream stdout --mode stall_same --culprit 2 --fail-step 4; }
barrier-stall-behind-both()        { start $FUNCNAME; both_run 3 --log-stream stdout --wait barrier --mode stall_behind --culprit 0 --fail-step 5; }
allreduce-thread-error-late-both() { start $FUNCNAME; both_run 3 --log-stream stdout --mode thread_error --culprit 2 --fail-step 40 --steps 60; }
# --- Flight Recorder dump sets (TORCH_FR_BUFFER_SIZE), dumped by the trainer to fr_dump/rank_<N>
fr-hang-stall-rankfiles()          { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 rank_run 3 --mode stall_same --culprit 1 --fail-step 4 --fr-dir fr_dump; fr; }
fr-mismatch-allgather-tee()        { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 tee_run 3 --mode mismatch_gather --culprit 2 --fail-step 4 --fr-dir fr_dump; fr; }
fr-mismatch-size-workers()         { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 worker_run 3 --mode mismatch_size --culprit 0 --fail-step 4 --fr-dir fr_dump; fr; }
fr-mismatch-size-tee()             { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 tee_run 3 --mode mismatch_size --culprit 1 --fail-step 3 --fr-dir fr_dump; fr; }
fr-mismatch-allgather-2rank-tee()  { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 tee_run 2 --mode mismatch_gather --culprit 1 --fail-step 4 --fr-dir fr_dump; fr; }
fr-uneven-batch-rankfiles()        { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 rank_run 3 --mode uneven_batch --culprit 2 --fail-step 4 --fr-dir fr_dump; fr; }
fr-missing-rank-sigkill-logdir()   { start $FUNCNAME; TORCH_FR_BUFFER_SIZE=2000 logdir_run 3 --mode sigkill --culprit 2 --fail-step 4 --fr-dir fr_dump; fr; }

ALL=$(grep -oE '^[a-z][a-z0-9-]+\(\)' "$0" | tr -d '()' | grep -vE '^(start|tee_run|logdir_run|rank_run|worker_run|both_run|fr|fr_analyse|fr-analyse-all)$')
for s in ${*:-$ALL}; do (set -x; $s) ; done
