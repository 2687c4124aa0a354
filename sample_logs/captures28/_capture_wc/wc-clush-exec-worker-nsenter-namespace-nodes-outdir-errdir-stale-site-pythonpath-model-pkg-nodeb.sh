#!/bin/bash
# ClusterShell `clush -R exec` fanning one torchrun agent per node out to two "nodes" (nodea, nodeb): each node is a
# persistent UTS + mount namespace (holder process), entered by wc_rsh.sh with nsenter, which sources the node's
# login environment nodes/<host>.env. clush writes each node's stdout/stderr to out/<host> and err/<host>
# (--outdir/--errdir) and its `host: line` console to clush.console. Static rendezvous, 2 nodes x 2 procs.
# nodeb's /site mount still carries wcmodel 1.3.2 (the site package was updated to 1.4.0 on nodea only), so the
# network nodeb's ranks build has a narrower middle layer (hidden // 4).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY wc_make_sitepkg.py pkgs/wcmodel-1.4.0 1.4.0; $PY wc_make_sitepkg.py pkgs/wcmodel-1.3.2 1.3.2
mkdir -p nodes site out err
for h in nodea nodeb; do
  v=1.4.0; [ $h = nodeb ] && v=1.3.2
  unshare -u -m --propagation private sh -c "hostname $h; mount --bind pkgs/wcmodel-$v site; exec sleep 200" &
  echo $! > nodes/$h.pid
  printf 'PYTHONPATH=%s/site\nOMP_NUM_THREADS=1\nPET_NODE_RANK=%d\n' "$J" $([ $h = nodea ] && echo 0 || echo 1) > nodes/$h.env
done
sleep 1
timeout -s TERM 120 nice clush -R exec -w nodea,nodeb -S --outdir out --errdir err \
  ./wc_rsh.sh %h torchrun --nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 \
  --master-port 29914 wc_train.py --model-pkg --epochs 1 --pg-timeout 20 \
  --fmt "'%%(asctime)s %%(levelname)s [rank{rank}] %%(message)s'" > clush.console 2>&1
rc clush $?
kill $(cat nodes/*.pid)
