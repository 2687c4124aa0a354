#!/bin/bash
# captures5 k-* incidents.  usage: capture.sh OUT NAME...   (scratch: $JOBS/<name>, default /home/user/jobs)
set -u
# Run in a private network namespace with only loopback up: torch's TCPStore / c10d rendezvous
# server binds the wildcard address, so this keeps every listener reachable on 127.0.0.1 only.
if [ -z "${K_NETNS:-}" ]; then
  exec unshare -n sh -c 'ip link set lo up && K_NETNS=1 exec "$0" "$@"' "$0" "$@"
fi
OUT=$(readlink -f "$1"); shift
HERE=$(dirname "$(readlink -f "$0")")
JOBS=${JOBS:-/home/user/jobs}
PY=/home/user/venv/bin/python
TR=/home/user/venv/bin/torchrun
ACC=/home/user/venv/bin/accelerate
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1

prep() { J=$JOBS/$1; rm -rf "$J"; mkdir -p "$J"; cp "$HERE"/k_train.py "$HERE"/make_data.py "$J"/; cd "$J"; }
rc() { echo "$2" > "$J/exit_codes.txt.$1"; echo "$1 exit $2"; }

s_k-acc-cpu-oom-logfiles() {
  prep $1
  nice $ACC launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port 29821 \
    k_train.py --launcher accelerate --log-format iso --log-dir logs --fault oom --fault-rank 1 --fault-step 4 > console.log 2>&1
  rc launcher $?
}
s_k-acc-nan-logfiles() {
  prep $1
  nice $ACC launch --multi_gpu --num_processes 4 --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port 29822 \
    k_train.py --launcher accelerate --log-format iso --log-dir logs --fault nan --fault-rank 2 --fault-step 6 > console.log 2>&1
  rc launcher $?
}
s_k-acc-healthy-warnings() {
  prep $1
  nice $ACC launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port 29823 \
    k_train.py --launcher accelerate --log-format iso --log-dir logs --warnings --steps 10 > console.log 2>&1
  rc launcher $?
}
s_k-acc-jit-version-refusal() {
  prep $1
  $PY - <<'PY'
import io, zipfile, torch
m = torch.jit.script(torch.nn.Linear(16, 16)); m.save("feat.pt")
# the frozen extractor as exported by a newer torch: its archive's `version` record says 99
zin = zipfile.ZipFile("feat.pt"); buf = io.BytesIO(); zout = zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED)
for it in zin.infolist():
    data = zin.read(it.filename)
    if it.filename.endswith("/version") or it.filename.endswith("/.data/version"):
        data = b"99\n"
    zout.writestr(it, data)
zout.close(); open("models/feat-v2.pt" if False else "feat-v2.pt", "wb").write(buf.getvalue())
PY
  mkdir -p models && mv feat-v2.pt models/ && rm -f feat.pt
  nice $ACC launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port 29824 \
    k_train.py --launcher accelerate --jit-model models/feat-v2.pt > console.log 2>&1
  rc launcher $?
}
# two torchrun agents = two "nodes" on this machine; node-1 has GLOO_SOCKET_IFNAME set to an interface it lacks
s_k-2node-gloo-ifname-node1() {
  prep $1; mkdir -p node-0 node-1
  C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29831 --rdzv-id k2n-ifname --tee 3"
  (cd node-0 && nice $TR $C --node-rank 0 ../k_train.py --pg-timeout 30 > console.log 2>&1; echo $? > ../rc0) &
  sleep 1
  (cd node-1 && GLOO_SOCKET_IFNAME=ib0 nice $TR $C --node-rank 1 ../k_train.py --pg-timeout 30 > console.log 2>&1; echo $? > ../rc1) &
  wait; rc node-0 $(cat rc0); rc node-1 $(cat rc1); rm rc0 rc1
}
# node-1's local scratch was staged without shard 3
s_k-2node-missing-shard-node1() {
  prep $1; mkdir -p node-0/scratch/shards node-1/scratch/shards
  $PY -c "
import torch
for r in range(4):
    for n in (0, 1):
        if n == 1 and r == 3: continue
        torch.save({'bias': torch.full((16,), 0.01 * r)}, f'node-{n}/scratch/shards/shard-{r:05d}.pt')
"
  C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29832 --rdzv-id k2n-shard --tee 3"
  (cd node-0 && nice $TR $C --node-rank 0 ../k_train.py --log-format iso --shard-dir scratch/shards > console.log 2>&1; echo $? > ../rc0) &
  sleep 1
  (cd node-1 && nice $TR $C --node-rank 1 ../k_train.py --log-format iso --shard-dir scratch/shards > console.log 2>&1; echo $? > ../rc1) &
  wait; rc node-0 $(cat rc0); rc node-1 $(cat rc1); rm rc0 rc1
}
s_k-2node-shape-mismatch-logdir() {
  prep $1; mkdir -p node-0 node-1
  C="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29833 --rdzv-id k2n-shape --log-dir logs --redirects 3 --tee 3"
  (cd node-0 && nice $TR $C --node-rank 0 ../k_train.py --fault shape_mismatch --fault-rank 2 --fault-step 5 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc0) &
  sleep 1
  (cd node-1 && nice $TR $C --node-rank 1 ../k_train.py --fault shape_mismatch --fault-rank 2 --fault-step 5 --pg-timeout 30 > console.log 2>&1; echo $? > ../rc1) &
  wait; rc node-0 $(cat rc0); rc node-1 $(cat rc1); rm rc0 rc1
}
s_k-tee-logdir-corrupt-sample() {
  prep $1
  $PY make_data.py data/train --n 64 --truncate 20
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29841 --log-dir logs --redirects 3 --tee 3 \
    k_train.py --data-dir data/train --steps 12 > console.log 2>&1
  rc launcher $?
}
s_k-iso-early-exit() {
  prep $1
  nice $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29842 \
    k_train.py --log-format iso --log-dir logs --fault early_exit --fault-rank 1 --fault-step 5 --pg-timeout 20 > launcher.log 2>&1
  rc launcher $?
}
s_k-tee-killed-external() {
  prep $1
  timeout -s TERM 25 nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29843 --tee 3 \
    k_train.py --steps 400 --sleep 0.3 > console.log 2>&1
  rc launcher $?
}
# the brief's literal `accelerate launch --multi_gpu --cpu`: accelerate 1.15.0 refuses the flag pair
s_k-acc-launch-flag-conflict() {
  prep $1
  nice $ACC launch --multi_gpu --cpu --num_processes 3 --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port 29825 \
    k_train.py --launcher accelerate --log-format iso --log-dir logs > console.log 2>&1
  rc launcher $?
}
for n in "$@"; do
  s_$n "$n"
  rm -rf "$OUT/$n"; mkdir -p "$OUT/$n"
  (cd "$JOBS/$n" && find . -name '*.log' -o -name 'error.json' | while read f; do mkdir -p "$OUT/$n/$(dirname "$f")"; cp "$f" "$OUT/$n/$f"; done)
done
