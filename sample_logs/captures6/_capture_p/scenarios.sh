# one function s_<name> per incident; sourced by capture.sh (runs in the job's scratch dir $J)

# torchrun --max-restarts 1: rank 2's batch 4 is not staged yet in attempt 0 (FileNotFoundError); a
# background "sync" stages it as soon as that failure shows in the log; attempt 1 runs to the end.
s_p-restart-late-shard-recovers() {
  prep $1
  $PY make_shards.py shards --ranks 3 --steps 10 --hold 2:4
  ( while ! grep -qs FileNotFoundError logs/*/attempt_0/2/stderr.log; do sleep 0.2; done
    cp shards.staging/rank2/batch-0004.csv shards/rank2/ ) &
  nice $TR --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29911 --max-restarts 1 --monitor-interval 1 \
    --log-dir logs --redirects 3 p_train.py --attempt-store --shard-dir shards --steps 10 --pg-timeout 20 > launcher.log 2>&1
  rc launcher $?
  wait
}
# torchrun --max-restarts 1: rank 1's batch 5 contains a latin-1 byte; fails in both attempts
s_p-restart-utf8-fails-twice() {
  prep $1
  $PY make_shards.py shards --ranks 3 --steps 10 --bad-utf8 1:5
  nice $TR --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29912 --max-restarts 1 --monitor-interval 1 \
    --log-dir logs --redirects 3 --tee 3 p_train.py --attempt-store --shard-dir shards --steps 10 --pg-timeout 20 > console.log 2>&1
  rc launcher $?
}
# three torchrun agents = three nodes, 2 workers each; node-2's node-local checkpoint dir is read-only
s_p-3node-readonly-ckpt-node2() {
  prep $1; mkdir -p node-0/ckpt node-1/ckpt node-2/ckpt
  mount --bind node-2/ckpt node-2/ckpt && mount -o remount,ro,bind node-2/ckpt
  C="--nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29913 --rdzv-id p3n-ckpt --tee 3"
  for r in 0 1 2; do
    (cd node-$r && nice $TR $C --node-rank $r ../p_train.py --ckpt-dir ckpt --ckpt-step 6 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc$r) &
    sleep 1
  done
  wait; for r in 0 1 2; do rc node-$r $(cat rc$r); done; rm rc0 rc1 rc2
  umount node-2/ckpt
}
# JSON-lines per-rank logs; rank 1 blocks forever in a remote fetch before step 6 (silent); 15 s pg timeout
s_p-jsonl-silent-hang() {
  prep $1
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29914 \
    p_train.py --log-format json --log-dir logs --fault hang --fault-rank 1 --fault-step 6 --pg-timeout 15 > launcher.log 2>&1
  rc launcher $?
}
# '%(asctime)s [%(process)d]' per-rank logs, faulthandler watchdog (6 s) into each rank's file;
# rank 2 blocks in a remote fetch before step 5; 20 s pg timeout
s_p-pidfmt-hang-watchdog() {
  prep $1
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29915 \
    p_train.py --log-format pid --log-dir logs --watchdog 6 --fault hang --fault-rank 2 --fault-step 5 --pg-timeout 20 > launcher.log 2>&1
  rc launcher $?
}
# legacy launcher, 3 processes; the script is given --world-size 4 (a config from a 4-GPU box)
s_p-legacy-launch-world-size() {
  prep $1
  nice $PY -m torch.distributed.launch --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29916 \
    p_train.py --world-size 4 --pg-timeout 20 > console.log 2>&1
  rc launcher $?
}
# mpirun, per-rank files with stderr merged into stdout; rank 2's resumed eval state is an older format
s_p-mpi-outfile-stale-state() {
  prep $1; mkdir -p state
  echo '{"best_val": 9.99, "step": 0, "version": 2}' > state/rank0.json
  echo '{"best_val": 9.99, "step": 0, "version": 2}' > state/rank1.json
  echo '{"best_loss": 9.99, "step": 0}' > state/rank2.json
  nice mpirun --allow-run-as-root --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29917 \
    --merge-stderr-to-stdout --output-filename logs $PY mpi_env.py p_train.py --state-dir state --pg-timeout 20 > console.log 2>&1
  rc mpirun $?
}
# a healthy run SIGKILLed from outside: the job runs in its own PID namespace (as in a container /
# cgroup); `timeout -s KILL` kills it, the kernel SIGKILLs every process in the namespace
s_p-sigkill-pidns-logdir() {
  prep $1
  timeout -s KILL 30 unshare -p -f --kill-child nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29918 \
    --log-dir logs --redirects 3 p_train.py --steps 400 --sleep 0.3 > launcher.log 2>&1
  rc launcher $?
}
# torch.distributed.run, --tee 3; healthy 20 steps with real torch warnings and a caught, retried error
s_p-run-healthy-retry-warnings() {
  prep $1
  nice $PY -m torch.distributed.run --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29919 --tee 3 \
    p_train.py --steps 20 --warnings --fault retry_ok --fault-rank 1 --fault-step 7 > console.log 2>&1
  rc launcher $?
}
# DeepSpeed's own launcher (CPU accelerator, gloo), per-rank logs via --enable_each_rank_log;
# rank 1's batch 6 was exported with 15 feature columns
s_p-ds-launcher-rank-logs-schema() {
  prep $1
  $PY make_shards.py shards --ranks 2 --steps 10 --drop-col 1:6
  nice $V/deepspeed --num_gpus 2 --master_port 29920 --enable_each_rank_log rank_logs \
    ds_p.py --deepspeed --deepspeed_config ds_config.json > console.log 2>&1
  rc launcher $?
}
# Lightning ddp (2 processes on CPU); the checkpoint dir is a 64 KiB tmpfs (a small quota'd volume)
s_p-pl-ckpt-tmpfs-full() {
  prep $1; mkdir -p ckpt
  mount -t tmpfs -o size=64k tmpfs ckpt
  nice $PY p_pl.py --ckpt-dir ckpt > console.log 2>&1
  rc launcher $?
  umount ckpt
}
# transformers.Trainer under torchrun --tee 3; one JSONL row (index 37) has 15 token ids instead of 16
s_p-hf-trainer-ragged-row() {
  prep $1
  $PY - <<'PY'
import json, random
r = random.Random(3)
with open("train.jsonl", "w") as f:
    for i in range(96):
        ids = [r.randrange(1, 100) for _ in range(16 if i != 37 else 15)]
        f.write(json.dumps({"input_ids": ids, "labels": r.randrange(4)}) + "\n")
PY
  nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29921 --tee 3 \
    p_hf.py --data train.jsonl > console.log 2>&1
  rc launcher $?
}
