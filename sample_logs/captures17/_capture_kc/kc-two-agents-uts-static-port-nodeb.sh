#!/bin/bash
# Two "nodes" = two torchrun agents (static rendezvous, --nnodes 2 --node-rank 0|1 --nproc-per-node 1 each,
# --master-addr 127.0.0.1), each in its own UTS namespace (hostnames gpu-a01 / gpu-a02) sharing the job's loopback.
# Per-node log directories: nodes/<hostname>/torchrun.log (that agent + its worker's stdout/stderr), launched as a
# cluster prolog would (env file nodes/<hostname>/job.env sourced first, one `[prolog ...] host ...` line written
# first). --rdzv-conf timeout=40.
# Planted: node gpu-a02's env file still carries the MASTER_PORT of yesterday's job (29617 instead of 29611).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p nodes/gpu-a01 nodes/gpu-a02
printf 'MASTER_ADDR=127.0.0.1\nMASTER_PORT=29611\nNODE_RANK=0\n' > nodes/gpu-a01/job.env
printf 'MASTER_ADDR=127.0.0.1\nMASTER_PORT=29617\nNODE_RANK=1\n' > nodes/gpu-a02/job.env
cat > node_agent.sh <<'EOA'
#!/bin/bash
# node_agent.sh HOST: one node's torchrun agent inside its own UTS namespace
hostname "$1"
. "nodes/$1/job.env"
cd "nodes/$1"
echo "[prolog $(date '+%F %T')] host $(hostname) node_rank $NODE_RANK master $MASTER_ADDR:$MASTER_PORT" > torchrun.log
exec torchrun --nnodes 2 --node-rank $NODE_RANK --nproc-per-node 1 --master-addr $MASTER_ADDR \
  --master-port $MASTER_PORT --rdzv-conf timeout=40 ../../kc_train.py --steps 12 --pg-timeout 30 >> torchrun.log 2>&1
EOA
export LOGLEVEL=INFO
timeout -s TERM 120 nice unshare -u bash node_agent.sh gpu-a01 & pa=$!
sleep 1
timeout -s TERM 120 nice unshare -u bash node_agent.sh gpu-a02 & pb=$!
wait $pa; rc gpu-a01 $?
wait $pb; rc gpu-a02 $?
