#!/bin/bash
# pdsh-style fan-out without ssh: `xargs -P 2` runs one "node" per host name from hosts.txt (cn17, cn18), each in
# its own UTS + mount namespace (hostname set, cluster hosts file nodes/hosts bind-mounted on /etc/hosts with one
# loopback address per node, a node-local 'scratch' tmpfs mounted on $J/scratch), and every output line of a node
# is prefixed `<host>: ` by `sed -u` as pdsh does; console.log = the merged fan-out output.
# Each node runs `torchrun --nnodes 2 --node-rank N --nproc-per-node 2 --master-addr cn17 --master-port 29563
# mc_envtrain.py --ckpt-dir scratch/ckpt --ckpt-every 10 --ckpt-keep 3` (static rendezvous, 4 ranks; each node's local
# rank 0 keeps the last 3 full training-state checkpoints on its node-local scratch).
# Planted: cn18's scratch tmpfs was created with size=2m (its prolog used the small default of a test partition)
# while cn17 got 64m; a checkpoint is ~1 MB, so cn18 runs out of space on its second checkpoint.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p scratch nodes
printf 'cn17\ncn18\n' > hosts.txt
printf '127.0.0.1 localhost\n127.0.2.17 cn17\n127.0.2.18 cn18\n' > nodes/hosts
cat > node.sh <<'EON'
#!/bin/bash
# node.sh HOST: set up the node (hostname, hosts file, node-local scratch) and run its torchrun agent
h=$1
case $h in cn17) nr=0; size=64m ;; cn18) nr=1; size=2m ;; esac
hostname $h
mount --bind nodes/hosts /etc/hosts
mount -t tmpfs -o size=$size tmpfs scratch
echo "node $h: scratch $(df -h scratch | awk 'NR==2 {print $2" total, "$4" free"}'), starting torchrun node-rank $nr"
exec torchrun --nnodes 2 --node-rank $nr --nproc-per-node 2 --master-addr cn17 --master-port 29563 \
  mc_envtrain.py --steps 40 --ckpt-dir scratch/ckpt --ckpt-every 10 --ckpt-keep 3
EON
export LOGLEVEL=INFO
timeout -s TERM 170 nice xargs -P 2 -I{} unshare -u -m --fork --kill-child sh -c 'bash node.sh {} 2>&1 | sed -u "s/^/{}: /"' \
  < hosts.txt > console.log 2>&1
rc xargs $?
