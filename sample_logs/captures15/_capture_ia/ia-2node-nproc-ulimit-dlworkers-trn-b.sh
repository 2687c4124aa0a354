#!/bin/bash
# Two simulated nodes on this machine: two torchrun agents (--nnodes 2 --nproc-per-node 2, c10d rendezvous at
# 127.0.0.1:29780), each in its own UTS + mount namespace with its own host name (trn-a, trn-b), each run by a
# non-root account (trn-a: uid 1001, trn-b: uid 1000; setpriv keeps only CAP_DAC_READ_SEARCH so the root-owned venv
# is readable). Per node: <host>/console.log (agent + its workers' stderr) and <host>/rank<R>.log (each worker's
# RotatingFileHandler, asctime format). DataLoader num_workers=2 per rank (forked at the first batch).
# Planted (node-level): trn-b's login limits give its account `ulimit -u 16` (max user processes/threads: RLIMIT_NPROC,
# counted over all tasks of the uid), trn-a keeps the default.
. "$(dirname "$(readlink -f "$0")")/common.sh"
chmod 777 "$J"
printf '127.0.0.1 localhost trn-a trn-b\n' > hosts
node() {  # node <hostname> <node-rank> <uid> <nproc limit or ''>
  mkdir -p $J/$1; chown $3:$3 $J/$1
  unshare -u -m sh -c "hostname $1; mount --bind $J/hosts /etc/hosts; cd $J; \
    HOME=$J/$1 exec setpriv --reuid $3 --regid $3 --clear-groups --inh-caps +dac_read_search --ambient-caps +dac_read_search \
    ${4:+prlimit --nproc=$4:$4} timeout -s TERM 120 nice $TR --nnodes 2 --node-rank $2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:29780 --rdzv-id ia2nproc --rdzv-conf join_timeout=60 ia_train.py --steps 10 --pg-timeout 30 \
    --workers 2 --log-file '$1/rank{rank}.log'" > $J/$1/console.log 2>&1
}
node trn-a 0 1001 '' & A=$!
sleep 1
node trn-b 1 1000 16 & B=$!
wait $A; rc trn-a $?
wait $B; rc trn-b $?
