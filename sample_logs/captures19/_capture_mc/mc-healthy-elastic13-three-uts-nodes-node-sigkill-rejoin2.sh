#!/bin/bash
# Three "nodes" = three torchrun agents, each in its own UTS + mount + PID namespace (hostnames node-a01..a03,
# `unshare -u -m -p --fork --kill-child`; a cluster hosts file nodes/hosts bind-mounted on /etc/hosts gives each node its own
# loopback address 127.0.1.N), sharing the job's loopback and the job dir (shared/ = the shared checkpoint dir):
#   torchrun --nnodes 1:3 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint node-a01:29477 --rdzv-id mcel13
#            --rdzv-conf last_call_timeout=5,join_timeout=60 --max-restarts 2 --monitor-interval 1 mc_elastic.py
# Per-node log nodes/<host>/agent.log (agent + its worker, LOGLEVEL=INFO).
# Injected (a node crash): once node-a03's worker has logged step 25, the harness SIGKILLs node-a03's PID-namespace
# init, which takes the agent and its worker down at once (nothing on that node can log anything more).
# Expected elastic behaviour: the survivors' workers fail, their agents restart them, re-rendezvous as 2 nodes and
# resume from the last checkpoint.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p shared/ckpt nodes/node-a01 nodes/node-a02 nodes/node-a03
printf '127.0.0.1 localhost\n127.0.1.1 node-a01\n127.0.1.2 node-a02\n127.0.1.3 node-a03\n' > nodes/hosts
cat > node_agent.sh <<'EOA'
#!/bin/bash
# node_agent.sh HOST: one node (own hostname) running the torchrun agent
hostname "$1"
mount --bind nodes/hosts /etc/hosts
exec torchrun --nnodes 1:3 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint node-a01:29477 --rdzv-id mcel13 \
  --rdzv-conf last_call_timeout=5,join_timeout=60 --max-restarts 2 --monitor-interval 1 \
  mc_elastic.py --steps 60 > nodes/$1/agent.log 2>&1
EOA
export LOGLEVEL=INFO
for h in node-a01 node-a02 node-a03; do
  timeout -k 10 -s TERM 170 nice unshare -u -m -p --fork --kill-child bash node_agent.sh $h & eval "p_${h//-/_}=\$!"; sleep 1
done
# wait for node-a03's worker to reach step 25, then crash the node (SIGKILL its PID-namespace init)
for i in $(seq 1 120); do grep -q "step 25/" nodes/node-a03/agent.log 2>/dev/null && break; sleep 0.5; done
ns_init=$(pgrep -P $(pgrep -P $p_node_a03 -x unshare) | head -1)
echo "$(date '+%F %T') crashing node-a03: kill -9 $ns_init (pid-ns init)" > inject.txt
kill -9 "$ns_init"
wait $p_node_a01; rc node-a01 $?
wait $p_node_a02; rc node-a02 $?
wait $p_node_a03; rc node-a03 $?
