#!/bin/bash
# Two torchrun agents (static rendezvous, --nnodes 2 --nproc-per-node 2, master cn-q1) as two "nodes" cn-q1 and cn-q2,
# each in its own UTS + mount namespace (own host name, the cluster hosts file on /etc/hosts, one loopback address
# per node). The ranks log only through a per-rank logging.handlers.TimedRotatingFileHandler (logs/<host>/rank<R>.log,
# rotated every 20 s); each agent's stdout/stderr is nodes/<host>/agent.log.
# Planted: cn-q2 becomes a degraded node: once its rank 2 has logged step 190, its cgroup's CPU quota is cut to 3 % of
# a core (cpu.cfs_quota_us 3000 / period 100000, like a node under a firmware power cap / noisy neighbour); the job's
# process-group timeout is 20 s and every 100 steps each rank evaluates its 8192-sample held-out slice before an
# all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
A=cn-q1; B=cn-q2; CG=/sys/fs/cgroup/cpu/oc_$B
mkdir -p nodes/$A nodes/$B
printf '127.0.0.1 localhost\n127.0.4.21 %s\n127.0.4.22 %s\n' $A $B > nodes/hosts
rmdir $CG 2>/dev/null; mkdir $CG; echo -1 > $CG/cpu.cfs_quota_us
cat > node.sh <<EON
#!/bin/bash
h=\$1; nr=\$2
hostname \$h
mount --bind nodes/hosts /etc/hosts
[ "\$h" = $B ] && echo \$\$ > $CG/cgroup.procs
exec torchrun --nnodes 2 --node-rank \$nr --nproc-per-node 2 --master-addr $A --master-port 29871 \
  oc_2node_rot.py --steps 300 --eval-every 100 --pg-timeout 20 > nodes/\$h/agent.log 2>&1
EON
export GLOO_SOCKET_IFNAME=lo
( until cat logs/$B/rank2.log* 2>/dev/null | grep -q ' step 190 '; do sleep 0.2; done
  echo 3000 > $CG/cpu.cfs_quota_us; echo "$(date +%T) quota cut on $B" ) &
timeout -s TERM 170 nice bash -c "
unshare -u -m --fork --kill-child bash node.sh $A 0 & a=\$!
unshare -u -m --fork --kill-child bash node.sh $B 1 & b=\$!
wait \$a; echo \"node $A agent exit \$?\"; wait \$b; echo \"node $B agent exit \$?\"" > launch.txt 2>&1
rc nodes $?
wait
echo -1 > $CG/cpu.cfs_quota_us; sleep 2; rmdir $CG || cat $CG/cgroup.procs
cat launch.txt
