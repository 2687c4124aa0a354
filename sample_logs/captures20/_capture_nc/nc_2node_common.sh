# sourced by the nc 2-node scripts after common.sh: two "nodes" as UTS + mount namespaces (own host name, the
# cluster hosts file nodes/hosts on /etc/hosts, one loopback address per node, the node's image manifest on
# /opt/stack/manifest.txt); each node runs one torchrun agent (static rendezvous, 2 nodes x 2 procs) whose
# output goes to nodes/<host>/console.log (torchrun --tee 3: [default<N>]: prefixed rank lines).
mkdir -p nodes/hosts.d ckpt
printf '127.0.0.1 localhost\n127.0.3.11 %s\n127.0.3.12 %s\n' "$NODE_A" "$NODE_B" > nodes/hosts
cat > node.sh <<'EON'
#!/bin/bash
# node.sh HOST NODE_RANK MANIFEST [RO_CKPT]: set up the node, then run its torchrun agent
h=$1; nr=$2
hostname $h
mount --bind nodes/hosts /etc/hosts
mkdir -p /opt/stack 2>/dev/null || true
mount -t tmpfs tmpfs /opt/stack && cp "$3" /opt/stack/manifest.txt
[ "${4:-}" = ro ] && mount --bind -o ro ckpt ckpt
mkdir -p nodes/$h
exec torchrun --nnodes 2 --node-rank $nr --nproc-per-node 2 --master-addr $MASTER --master-port 29733 \
  --tee 3 nc_2node.py $TRAIN_ARGS > nodes/$h/console.log 2>&1
EON
