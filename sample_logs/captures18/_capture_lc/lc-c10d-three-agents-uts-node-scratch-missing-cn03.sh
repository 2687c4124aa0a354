#!/bin/bash
# Three "nodes" = three `python -m torch.distributed.run` agents with the c10d rendezvous backend
# (--rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29455 --rdzv-id=lcjob42 --nnodes=3 --nproc-per-node=1), each in its own
# UTS + mount namespace (hostnames cn-01, cn-02, cn-03, resolved through a cluster hosts file nodes/hosts bind-mounted
# on /etc/hosts) sharing the job's loopback. Each node has a node-local scratch
# (a private tmpfs mounted on $J/scratch inside that node's mount namespace) that the node prolog fills from
# shared/lcdata; training reads scratch/lcdata/part-<rank>.npz. Per-node logs: nodes/<host>/agent.log (prolog line +
# agent + its worker). rdzv timeout 60 s, pg timeout 30 s.
# Planted: on cn-03 the prolog's stage-in copied nothing (its copy list was empty: the node was added to the
# allocation after the stage-in list was built), so that node's scratch is empty.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p shared scratch nodes/cn-01 nodes/cn-02 nodes/cn-03
$PY lc_make_data.py shared/lcdata 3 --n 300 > prep.txt
printf 'shared/lcdata/part-00000.npz shared/lcdata/part-00001.npz shared/lcdata/part-00002.npz\n' > nodes/cn-01/stage.list
cp nodes/cn-01/stage.list nodes/cn-02/stage.list
: > nodes/cn-03/stage.list
printf '127.0.0.1 localhost\n127.0.0.1 cn-01\n127.0.0.1 cn-02\n127.0.0.1 cn-03\n' > nodes/hosts
cat > node_agent.sh <<'EOA'
#!/bin/bash
# node_agent.sh HOST: one node (own hostname, own scratch tmpfs), prolog stage-in then the torch.distributed.run agent
hostname "$1"
mount -t tmpfs -o size=32m tmpfs scratch && mkdir -p scratch/lcdata
mount --bind nodes/hosts /etc/hosts
n=0; for f in $(cat nodes/$1/stage.list); do cp "$f" scratch/lcdata/ && n=$((n+1)); done
echo "[prolog $(date '+%F %T')] host $(hostname) job lcjob42 scratch $(pwd)/scratch staged $n files" > nodes/$1/agent.log
exec python -m torch.distributed.run --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29455 --rdzv-id=lcjob42 \
  --nnodes=3 --nproc-per-node=1 --rdzv-conf timeout=60 lc_train.py --data-dir scratch/lcdata --steps 12 \
  --pg-timeout 30 >> nodes/$1/agent.log 2>&1
EOA
export LOGLEVEL=INFO
for h in cn-01 cn-02 cn-03; do
  timeout -s TERM 150 nice unshare -u -m bash node_agent.sh $h & eval "p_${h/-/_}=\$!"; sleep 1
done
wait $p_cn_01; rc cn-01 $?
wait $p_cn_02; rc cn-02 $?
wait $p_cn_03; rc cn-03 $?
