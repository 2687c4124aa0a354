#!/bin/bash
# Two "nodes" cn-a / cn-b (UTS + mount namespaces, own host name, shared cluster hosts file, one loopback address
# each). On each node the operator starts the agent from an interactive shell (a pty from util-linux `script`) with
# `nohup torchrun ... &` (static rendezvous, --nnodes 2 --nproc-per-node 2, master cn-a), so each node keeps
# nodes/<host>/nohup.out. cn-b runs the site memory watchdog memwatch.sh (limit 1200 MiB RSS, log memwatch.log).
# Same setup as pc-nohup-out-2node-uts-static-memwatch-sigkill-hardbatch-cache-r3 without the planted fault (all four
# shards exported correctly); the trainer still keeps an 8 MiB feature view of every "hard" batch (loss > 0.9).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY pc_make_data.py data 4 3000
mkdir -p nodes/cn-a nodes/cn-b
printf '127.0.0.1 localhost\n127.0.6.1 cn-a\n127.0.6.2 cn-b\n' > nodes/hosts
cat > node.sh <<EON
#!/bin/bash
h=\$1; nr=\$2
hostname \$h; mount --bind $J/nodes/hosts /etc/hosts; cd $J/nodes/\$h
export GLOO_SOCKET_IFNAME=lo
[ \$h = cn-b ] && { LIMIT_MB=1200 bash $J/memwatch.sh > memwatch.log 2>&1 & }
script -qfc "nohup torchrun --nnodes 2 --node-rank \$nr --nproc-per-node 2 --rdzv-backend static --master-addr cn-a --master-port 29927 $J/pc_train.py --data $J/data --steps 400 --sleep 0.1 --pg-timeout 30 --cache-features --fmt host & echo \\\$! > agent.pid; sleep 1" /dev/null > tty.txt
pid=\$(cat agent.pid); while [ -d /proc/\$pid ]; do sleep 0.5; done
sleep 1; kill %1 2>/dev/null
EON
timeout -s TERM 150 nice bash -c "
unshare -u -m --fork --kill-child bash node.sh cn-a 0 & a=\$!
sleep 2
unshare -u -m --fork --kill-child bash node.sh cn-b 1 & b=\$!
wait \$a; wait \$b" > launch.txt 2>&1
rc nodes $?
