#!/usr/bin/env bash
# Recreate the captured sample jobs of sample_logs/ from scratch.
#
#   sample_logs/_capture/capture.sh OUT_DIR [SCENARIO ...]
#
# Every scenario is a real run of _capture/train.py (DDP on gloo, CPU) under the
# real launcher (torchrun) or, for the Slurm layout, under _capture/srun_label.py.
# Each run happens in a scratch job directory ($JOBS/<scenario>, default
# /home/user/jobs); the log files are then copied, unchanged, into
# OUT_DIR/<scenario>/ in the layout a user would have. README.md, truth.json and .correlatorignore
# in OUT_DIR/<scenario>/ are left alone: they are written by hand against the
# committed capture, and a new capture (different pids, timings and sometimes a
# different set of collateral ranks) must be checked against them.
#
# Needs: a venv with torch (CPU) + tqdm, given as PYENV (default /home/user/venv);
# faketime (Debian package) for the two-node scenario; deepspeed (DS_BUILD_OPS=0) in
# PYENV for deepspeed-batch-config-error; accelerate (1.15.0) in PYENV for the accelerate
# scenarios.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PYENV=${PYENV:-/home/user/venv}
PY=$PYENV/bin/python
TORCHRUN=$PYENV/bin/torchrun
TRAIN=$HERE/train.py
JOBS=${JOBS:-/home/user/jobs}

if [ $# -lt 1 ]; then
  echo "usage: $0 OUT_DIR [SCENARIO ...]" >&2
  exit 2
fi
OUT=$(realpath -m "$1"); shift
ALL="gloo-data-error-per-rank torchrun-logdir-tree slurm-combined-srun-label torchrun-tee-console"
ALL="$ALL two-node-faketime-skew collective-mismatch-detail detail-ddp-segfault-all-ranks rendezvous-node-never-joined"
ALL="$ALL healthy-per-rank healthy-tee-console healthy-srun-label deepspeed-batch-config-error gzip-data-error-per-rank"
ALL="$ALL accelerate-grad-accum-uneven checkpoint-disk-full dataloader-worker-killed import-error-all-ranks"
ALL="$ALL monitored-barrier-timeout tcpstore-master-gone per-node-dirs-data-error healthy-accelerate"
ALL="$ALL grad-accum-not-dividing batch-size-changes-across-microsteps batchnorm-grad-accumulation"
SCENARIOS=${*:-$ALL}

echo "# capture $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
$PY -c 'import sys, torch; print("# torch", torch.__version__, "python", sys.version.split()[0])'

# fresh scratch job dir, and an output dir emptied of everything but README.md / truth.json
start() {
  name=$1
  job=$JOBS/$name
  rm -rf "$job"; mkdir -p "$job"
  dest=$OUT/$name
  mkdir -p "$dest"
  find "$dest" -mindepth 1 -maxdepth 1 ! -name README.md ! -name truth.json ! -name .correlatorignore -exec rm -rf {} +
  echo "== $name (job dir $job)"
  cd "$job" || exit 1
}

# 1. one log file per rank: every worker redirects its own stdout+stderr (per_rank.sh)
gloo-data-error-per-rank() {
  start gloo-data-error-per-rank
  RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --steps 30 --progress --fail data_error --fail-rank 2 --fail-step 17 \
      > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log "$dest/"
}

# 2. the raw torchrun --log-dir tree + the launcher console; rank 1 SIGKILLed
torchrun-logdir-tree() {
  start torchrun-logdir-tree
  $TORCHRUN --standalone --nproc-per-node 4 --log-dir "$job/torchrun_logs" --redirects 3 \
    "$TRAIN" --record --log-format default --steps 30 --fail sigkill --fail-rank 1 --fail-step 12 \
    > launcher.log 2>&1
  echo "exit $?"
  cp -r torchrun_logs "$dest/"
  cp launcher.log "$dest/"
}

# 3. one Slurm-style output file, every line labelled "N: " by srun_label.py (srun -l emulation)
slurm-combined-srun-label() {
  start slurm-combined-srun-label
  $PY "$HERE/srun_label.py" --ntasks 4 --port 29571 --jobid 4242 -- \
    $PY "$TRAIN" --print-config --steps 30 --log-every 5 --fail inf_input --fail-rank 1 --fail-step 14 \
    > slurm-4242.out
  echo "exit $?"
  cp slurm-4242.out "$dest/"
}

# 4. torchrun --tee 3 console ([defaultN]: prefixes), rank 3 hangs past the gloo timeout
torchrun-tee-console() {
  start torchrun-tee-console
  $TORCHRUN --standalone --nproc-per-node 4 --tee 3 \
    "$TRAIN" --log-format default --progress --steps 40 --log-every 10 \
      --fail hang --fail-rank 3 --fail-step 23 --timeout 20 \
    > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}

# 5. two "nodes" = two torchrun agents on localhost (static rendezvous), node 1 under
#    faketime +40s; each node's --tee console in node-<N>/console.log. Rank 2 (node 1,
#    local rank 0) hits a shape bug.
two-node-faketime-skew() {
  start two-node-faketime-skew
  mkdir -p node-0 node-1
  local args="--steps 30 --log-every 5 --record --fail shape_bug --fail-rank 2 --fail-step 9"
  local rdzv="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29581 --tee 3"
  $TORCHRUN $rdzv --node-rank 0 "$TRAIN" $args > node-0/console.log 2>&1 &
  local p0=$!
  faketime -f +40s $TORCHRUN $rdzv --node-rank 1 "$TRAIN" $args > node-1/console.log 2>&1 &
  local p1=$!
  wait $p0; echo "node-0 exit $?"
  wait $p1; echo "node-1 exit $?"
  cp -r node-0 node-1 "$dest/"
}

# 6. collective mismatch detected by TORCH_DISTRIBUTED_DEBUG=DETAIL (manual grad all_reduce,
#    because DDP + DETAIL segfaults on this build, see detail-ddp-segfault-all-ranks)
collective-mismatch-detail() {
  start collective-mismatch-detail
  TORCH_DISTRIBUTED_DEBUG=DETAIL RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --log-format default --grad-sync manual --steps 30 --fail mismatch --fail-rank 3 --fail-step 8 \
      > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log launcher.log "$dest/"
}

# 7. the same DDP trainer with TORCH_DISTRIBUTED_DEBUG=DETAIL: every rank segfaults in
#    DDP.__init__ (torch 2.13.0+cpu, gloo) -- an all-ranks-alike crash, nothing injected
detail-ddp-segfault-all-ranks() {
  start detail-ddp-segfault-all-ranks
  PYTHONFAULTHANDLER=1 TORCH_DISTRIBUTED_DEBUG=DETAIL RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --log-format default --steps 30 \
      > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log launcher.log "$dest/"
}

# 8. c10d rendezvous for 2 nodes, only node 0 ever starts: RendezvousTimeoutError
rendezvous-node-never-joined() {
  start rendezvous-node-never-joined
  mkdir -p node-0
  $TORCHRUN --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:29591 --rdzv-id job-7731 --rdzv-conf join_timeout=20 --tee 3 \
    "$TRAIN" --steps 30 > node-0/console.log 2>&1
  echo "exit $?"
  cp -r node-0 "$dest/"
}

# 9. healthy control runs, one per trainer shape (for --baseline)
healthy-per-rank() {
  start healthy-per-rank
  RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --steps 30 --progress > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log "$dest/"
}
healthy-tee-console() {
  start healthy-tee-console
  $TORCHRUN --standalone --nproc-per-node 4 --tee 3 \
    "$TRAIN" --log-format default --progress --steps 40 --log-every 10 --timeout 20 \
    > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}
healthy-srun-label() {
  start healthy-srun-label
  $PY "$HERE/srun_label.py" --ntasks 4 --port 29572 --jobid 4243 -- \
    $PY "$TRAIN" --print-config --steps 30 --log-every 5 > slurm-4243.out
  echo "exit $?"
  cp slurm-4243.out "$dest/"
}

# 10. DeepSpeed (CPU accelerator, gloo) with train_batch_size != micro * accum * world:
#     every rank fails alike in deepspeed.initialize(). The first run JIT-builds a
#     DeepSpeed shm op (about 90 s), later runs reuse ~/.cache/torch_extensions.
deepspeed-batch-config-error() {
  start deepspeed-batch-config-error
  $TORCHRUN --standalone --nproc-per-node 4 --tee 3 "$HERE/ds_train.py" \
    --deepspeed --deepspeed_config "$HERE/ds_config_bad_batch.json" > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}

# 11. gzip-compressed copy of scenario 1's per-rank files (a user who archived the logs);
#     copies the already captured files of OUT/gloo-data-error-per-rank, so run that first
gzip-data-error-per-rank() {
  start gzip-data-error-per-rank
  for f in "$OUT"/gloo-data-error-per-rank/rank*.log; do
    gzip -n -c "$f" > "$dest/$(basename "$f").gz"
  done
  echo "gzipped $(ls "$dest"/*.gz | wc -l) files"
}

# 12. accelerate launch (torchrun underneath, no --tee: the workers write straight to the
#     console) of _capture/acc_train.py: Accelerator(cpu=True) -> MULTI_CPU/gloo, gradient
#     accumulation 4, 341 samples with even_batches=False: rank 2 alone gets a short last
#     batch (5 samples) and the model's x.view(batch_size, ...) fails on it
accelerate-grad-accum-uneven() {
  start accelerate-grad-accum-uneven
  $PYENV/bin/accelerate launch --multi_gpu --num_processes 4 --main_process_port 29611 \
    "$HERE/acc_train.py" --cpu --gradient-accumulation-steps 4 --num-samples 341 \
      --even-batches false --fail short_batch_reshape > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}
# 12b. its healthy control: the same with accelerate's default even_batches=True
healthy-accelerate() {
  start healthy-accelerate
  $PYENV/bin/accelerate launch --multi_gpu --num_processes 4 --main_process_port 29612 \
    "$HERE/acc_train.py" --cpu --gradient-accumulation-steps 4 --num-samples 341 \
      --even-batches true > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}

# 13. rank 0 saves a checkpoint after step 20 while ranks 1-3 wait in dist.barrier(); the
#     checkpoint file is a symlink to /dev/full, so every write fails with ENOSPC
checkpoint-disk-full() {
  start checkpoint-disk-full
  mkdir -p checkpoints
  ln -s /dev/full checkpoints/step-000020.pt
  RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --steps 30 --save-step 20 --checkpoint-dir checkpoints --timeout 20 \
      > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log launcher.log "$dest/"
}

# 14. Slurm layout (srun -l emulated): num_workers=2, a DataLoader worker of rank 1 is
#     SIGKILLed (the host OOM killer's mark) while loading a sample of step 13
dataloader-worker-killed() {
  start dataloader-worker-killed
  $PY "$HERE/srun_label.py" --ntasks 4 --port 29641 --jobid 4245 -- \
    $PY "$TRAIN" --steps 30 --log-every 5 --num-workers 2 --timeout 20 \
      --fail worker_killed --fail-rank 1 --fail-step 13 > slurm-4245.out
  echo "exit $?"
  cp slurm-4245.out "$dest/"
}

# 15. every rank fails alike: the model code imports flash_attn, which is not installed
import-error-all-ranks() {
  start import-error-all-ranks
  $TORCHRUN --standalone --nproc-per-node 4 --tee 3 \
    "$TRAIN" --steps 30 --fail import_error > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}

# 16. dist.monitored_barrier(timeout=10 s) at step 15, rank 2 arrives 30 s late
monitored-barrier-timeout() {
  start monitored-barrier-timeout
  RANK_LOG_DIR=$job/logs PYTHON=$PY TRAIN_PY=$TRAIN \
    $TORCHRUN --standalone --nproc-per-node 4 --no-python sh "$HERE/per_rank.sh" \
      --log-format default --steps 30 --timeout 20 --fail monitored_barrier --fail-rank 2 \
      --fail-step 15 --hang-seconds 30 --monitored-barrier-timeout 10 \
      > launcher.log 2>&1
  echo "exit $?"
  cp logs/rank*.log launcher.log "$dest/"
}

# 17. Slurm layout (srun -l emulated, no torchrun: rank 0 hosts the TCPStore on
#     MASTER_PORT 29631); rank 3 uses a stale port (29638) and never reaches the store
tcpstore-master-gone() {
  start tcpstore-master-gone
  $PY "$HERE/srun_label.py" --ntasks 4 --port 29631 --jobid 4246 -- \
    $PY "$TRAIN" --steps 30 --timeout 15 --fail store_unreachable --fail-rank 3 > slurm-4246.out
  echo "exit $?"
  cp slurm-4246.out "$dest/"
}

# 18. two "nodes" = two torchrun agents (static rendezvous on 127.0.0.1:29651), each with
#     --log-dir node-<N>/logs --redirects 3 (worker output only in the per-rank files) and
#     its console in node-<N>/console.log; corrupt sample on rank 3 (node 1, local rank 1)
per-node-dirs-data-error() {
  start per-node-dirs-data-error
  mkdir -p node-0 node-1
  local args="--steps 30 --log-every 5 --log-format default --fail data_error --fail-rank 3 --fail-step 11"
  local rdzv="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29651 --redirects 3"
  $TORCHRUN $rdzv --node-rank 0 --log-dir "$job/node-0/logs" "$TRAIN" $args > node-0/console.log 2>&1 &
  local p0=$!
  $TORCHRUN $rdzv --node-rank 1 --log-dir "$job/node-1/logs" "$TRAIN" $args > node-1/console.log 2>&1 &
  local p1=$!
  wait $p0; echo "node-0 exit $?"
  wait $p1; echo "node-1 exit $?"
  cp -r node-0 node-1 "$dest/"
}

# 19-21. the gradient-accumulation seed scenarios, accelerate launch (torchrun underneath,
#     no --tee) of _capture/seed_train.py; nothing injected, only configuration
SEED_TRAIN=$HERE/seed_train.py
# 19. 2032 samples / (4 ranks * 4) = 127 batches per rank per epoch, gradient accumulation 8:
#     the 16th update of each epoch accumulates 7 micro-batches. No error; exit 0.
grad-accum-not-dividing() {
  start grad-accum-not-dividing
  $PYENV/bin/accelerate launch --multi_gpu --num_processes 4 --main_process_port 29661 \
    "$SEED_TRAIN" --cpu --model mlp --num-samples 2032 --per-device-batch-size 4 \
      --gradient-accumulation-steps 8 --num-epochs 2 > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}
# 20. token-budget (length-bucketed) batch sampler: batch 5 holds a 48-long sequence, so it
#     has 5 samples instead of 8; it is rank 1's 2nd micro-step. accelerator.gather() of the
#     per-sample losses then has different sizes across ranks (gloo all_gather)
batch-size-changes-across-microsteps() {
  start batch-size-changes-across-microsteps
  $PYENV/bin/accelerate launch --multi_gpu --num_processes 4 --main_process_port 29662 \
    "$SEED_TRAIN" --cpu --model seq_pool --num-samples 1000 --per-device-batch-size 8 \
      --max-tokens 256 --long-every 41 --gradient-accumulation-steps 4 --gather-loss \
      --log-all-ranks > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}
# 21. BatchNorm1d, micro-batch 2, gradient accumulation 8, even_batches=False, 239 samples:
#     the last batch (index 119 -> rank 3, its 30th) has 1 sample, BatchNorm in train mode
#     rejects it
batchnorm-grad-accumulation() {
  start batchnorm-grad-accumulation
  $PYENV/bin/accelerate launch --multi_gpu --num_processes 4 --main_process_port 29664 \
    "$SEED_TRAIN" --cpu --model bn_mlp --num-samples 239 --per-device-batch-size 2 \
      --gradient-accumulation-steps 8 --even-batches false --log-all-ranks > console.log 2>&1
  echo "exit $?"
  cp console.log "$dest/"
}

for s in $SCENARIOS; do
  if declare -F "$s" >/dev/null; then
    "$s"
  else
    echo "== $s: not defined in this script" >&2
  fi
done
