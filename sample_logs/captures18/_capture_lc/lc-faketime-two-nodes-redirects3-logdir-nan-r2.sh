#!/bin/bash
# Two "nodes" (UTS namespaces gpu-n1 / gpu-n2), each a torchrun agent with --nnodes 2 --node-rank 0|1
# --nproc-per-node 2 (4 ranks) and --redirects 3 --log-dir nodes/<host>/logs: every worker's stdout/stderr go to
# torchrun's per-attempt files nodes/<host>/logs/<run_id>/attempt_0/<local_rank>/{stdout,stderr}.log; the agent's own
# output goes to nodes/<host>/agent.log. Node gpu-n2's clock runs 97 s ahead (libfaketime `faketime -f +97s`, an
# unsynced NTP). Each rank reads data/part-<rank>.npz; rank 0 checks the final loss (--final-check).
# Planted: record 58 of rank 2's shard has a NaN feature (a missing value in the CSV export).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p nodes/gpu-n1 nodes/gpu-n2
$PY lc_make_data.py data 4 --n 240 --nan 2:58 > prep.txt
cat > node_agent.sh <<'EOA'
#!/bin/bash
hostname "$1"
exec $3 torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29588 \
  --rdzv-id lcnan --redirects 3 --log-dir nodes/$1/logs lc_train.py --data-dir data --steps 14 --sleep 0.1 \
  --final-check --pg-timeout 30 > nodes/$1/agent.log 2>&1
EOA
export LOGLEVEL=INFO
timeout -s TERM 150 nice unshare -u bash node_agent.sh gpu-n1 0 "" & pa=$!
sleep 1
timeout -s TERM 150 nice unshare -u bash node_agent.sh gpu-n2 1 "faketime -f +97s" & pb=$!
wait $pa; rc gpu-n1 $?
wait $pb; rc gpu-n2 $?
