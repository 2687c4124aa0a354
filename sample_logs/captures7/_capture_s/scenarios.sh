# one function s_<name> per incident; sourced by capture.sh (runs in the scratch dir $J)

# mp.spawn, 3 processes, each logs only to its own file (custom format) with faulthandler into it;
# rank 1 calls a 'native extension' that dereferences NULL at step 7
s_s-spawn-logfiles-segv() {
  prep $1
  MASTER_ADDR=127.0.0.1 MASTER_PORT=29801 nice $PY s_train.py --spawn 3 --log-style custom --log-file 'logs/worker-{rank}.log' \
    --faulthandler --fault segv --fault-rank 1 --fault-step 7 --pg-timeout 30 > console.log 2>&1
  rc launcher $?
}

# two torchrun agents = two nodes (static rendezvous, --node-rank), 2 workers each, no --tee: each node's
# console holds its agent's and its workers' unprefixed output. node-1's environment still exports
# TRAIN_HIDDEN_DIM=48 (left from another experiment); the trainer reads its width from it (default 32)
s_s-static-2node-env-node1() {
  prep $1; mkdir -p node-0 node-1
  C="--nnodes 2 --nproc-per-node 2 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29802"
  (cd node-0 && nice $TR $C --node-rank 0 ../s_train.py --steps 15 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc0) &
  sleep 2
  (cd node-1 && export TRAIN_HIDDEN_DIM=48 && nice $TR $C --node-rank 1 ../s_train.py --steps 15 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc1) &
  wait; for r in 0 1; do rc node-$r $(cat rc$r); done; rm rc0 rc1
}

# srun --label look-alike (label_ranks.py), 4 tasks, one combined slurm-5150.out; rank 3 is a straggler:
# a slow shard fetch (40 s) before step 5; gloo pg timeout 20 s
s_s-srunlabel-straggler-timeout() {
  prep $1
  MASTER_ADDR=127.0.0.1 MASTER_PORT=29803 nice $PY label_ranks.py -n 4 -- $PY s_train.py --steps 10 --pg-timeout 20 \
    --fault straggler --fault-rank 3 --fault-step 5 --straggle-s 40 > slurm-5150.out 2>&1
  rc launcher $?
}

# FSDP2 (fully_shard) on CPU gloo, sharded checkpoint = one torch.save file per rank with its local shards;
# TORCH_DISTRIBUTED_DEBUG=DETAIL and TORCH_CPP_LOG_LEVEL=INFO. Earlier (setup, not kept): a 2-rank run saved
# ckpt/step-20 (width 32); a 2-rank run of another experiment (TRAIN_HIDDEN_DIM=48) saved wide/step-20; rank 1's
# shard file of ckpt/step-20 is then overwritten by wide's (a mixed-up copy). The kept job resumes from
# ckpt/step-20: torchrun --log-dir logs --redirects 3 --tee 3 --local-ranks-filter 0 (console shows rank 0 only)
s_s-fsdp-resume-shard-mixup() {
  prep $1
  nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29804 s_train.py --wrap fsdp --optim adamw --lr 0.001 \
    --steps 20 --sleep 0 --shard-save ckpt/step-20 > setup-a.txt 2>&1
  TRAIN_HIDDEN_DIM=48 nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29804 s_train.py --wrap fsdp --optim adamw \
    --lr 0.001 --steps 20 --sleep 0 --shard-save wide/step-20 > setup-b.txt 2>&1
  cp wide/step-20/shard-rank1.pt ckpt/step-20/shard-rank1.pt
  TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29805 \
    --log-dir logs --redirects 3 --tee 3 --local-ranks-filter 0 \
    s_train.py --wrap fsdp --optim adamw --lr 0.001 --steps 30 --shard-load ckpt/step-20 > console.log 2>&1
  rc launcher $?
}

# torchrun --no-python rank_limits.sh (ulimit -v 2500000 for RANK 1 only), 3 workers, no --tee; loguru's default
# format to stderr (-> launcher.log, unprefixed) and to logs/rank_{rank}.log; at step 8 every rank reserves a
# 2 GiB activation arena (virtual, torch.empty): rank 1 cannot map it
s_s-loguru-ulimit-v-rank1() {
  prep $1
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29806 --no-python ./rank_limits.sh \
    --steps 14 --log-style loguru --log-file 'logs/rank_{rank}.log' --fault alloc --fault-step 8 --arena-gb 2 > launcher.log 2>&1
  rc launcher $?
}

# tqdm-only trainer (no log lines: one bar per rank, loss in the postfix), torchrun --tee 2 (stderr teed with
# [defaultN]: prefixes, stdout not), 3 workers; from step 6 the last rank's bar adds a 'tail' loss
# statistic with .item() on a 4-element tensor (a bug on that rank's code path only)
s_s-tqdm-tee2-tail-item() {
  prep $1
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29807 --tee 2 \
    s_train.py --steps 16 --log-style tqdm --fault tail_stats --fault-step 6 > console.log 2>&1
  rc launcher $?
}

# torchrun --log-dir logs --redirects 1 (stdout of each worker to its file, stderr to the console), 4 workers;
# log lines with relative timestamps ('%(relativeCreated)9.0fms') on stdout and in out/rank-N.txt; the job's
# AdamW beta2 is given as 9.95 (a typo for 0.995) on every rank
s_s-redirects1-reltime-beta-typo() {
  prep $1
  nice $TR --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 29808 --log-dir logs --redirects 1 \
    s_train.py --steps 12 --log-style reltime --log-file 'out/rank-{rank}.txt' --optim adamw --lr 0.0003 --beta2 9.95 > console.log 2>&1
  rc launcher $?
}

# Lightning strategy='ddp' (re-executes the script per rank), 3 processes on CPU, CSVLogger; 600 sample files
# kept open by the dataset's handle cache; the process of LOCAL_RANK 2 gets an open-files limit of 48
# (prlimit, applied by fd_limit_watch.sh as soon as that process exists); the others keep 1048576
s_s-pl-csv-nofile-rank2() {
  prep $1
  $PY make_samples.py data 600
  ./fd_limit_watch.sh 2 48 > watch.txt 2>&1 &
  nice $PY s_pl.py --devices 3 --epochs 2 > console.log 2>&1
  rc launcher $?
  wait
}
# Lightning strategy='ddp', 2 processes, CSVLogger, 3 epochs; harmless but alarming output (caught and retried
# OSError with traceback on rank 1, a 'nan' auxiliary metric warning, Lightning/torch warnings); exit 0
s_s-pl-csv-healthy-alarming() {
  prep $1
  $PY make_samples.py data 300
  nice $PY s_pl.py --devices 2 --epochs 3 --warnings > console.log 2>&1
  rc launcher $?
}

# two torchrun agents = two nodes (static rendezvous), 2 workers each, --tee 3 per node console;
# TORCH_DISTRIBUTED_DEBUG=DETAIL + TORCH_CPP_LOG_LEVEL=INFO (c10d debug/trace noise), gradients all-reduced by
# hand (DDP + DETAIL segfaults on this build), harmless but alarming
# lines (caught+retried ConnectionResetError with traceback on rank 1, a 'nan' auxiliary metric warning,
# UserWarning/RuntimeWarning); exit 0
s_s-static-2node-healthy-detail() {
  prep $1; mkdir -p node-0 node-1
  export TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO
  C="--nnodes 2 --nproc-per-node 2 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29809 --tee 3"
  A="../s_train.py --wrap manual --steps 12 --warnings --pg-timeout 60"
  (cd node-0 && nice $TR $C --node-rank 0 $A > console.log 2>&1; echo $? > ../rc0) &
  sleep 2
  (cd node-1 && nice $TR $C --node-rank 1 $A > console.log 2>&1; echo $? > ../rc1) &
  wait; for r in 0 1; do rc node-$r $(cat rc$r); done; rm rc0 rc1
  unset TORCH_DISTRIBUTED_DEBUG TORCH_CPP_LOG_LEVEL
}

# accelerate launch --config_file acc_config.yaml (3 processes; MULTI_GPU entry -> torchrun, Accelerator(cpu=True) ->
# gloo), RichHandler logging on every rank; a healthy 400-step run (~90 s) under `timeout -s TERM 45`:
# timeout SIGTERMs the whole process group (accelerate/torchrun agent and the 3 workers) at 45 s
s_s-acc-yaml-rich-timeout-term() {
  prep $1
  timeout -s TERM 45 nice accelerate launch --config_file acc_config.yaml s_acc.py --steps 400 --sleep 0.2 > console.log 2>&1
  rc launcher $?
}

# Ray Train TorchTrainer, 3 workers, ray.init(_temp_dir=rt): driver console + the session's worker-*.out/.err
# files; rank 2's batch 6 holds an inf feature: its local loss is nan, DDP's gradient all-reduce spreads
# the nan, clip_grad_norm_(error_if_nonfinite=True) raises on every rank in the same step.
# HOME is the scratch dir (Ray writes $HOME/.ray), no usage stats.
s_s-ray-tempdir-nan-spread() {
  prep $1; mkdir -p home
  $PY make_batches.py data --ranks 3 --steps 16 --inf 2:6
  RAY_USAGE_STATS_ENABLED=0 HOME=$PWD/home nice $PY s_ray.py --workers 3 --data data --temp-dir rt > console.log 2>&1
  rc launcher $?
}
