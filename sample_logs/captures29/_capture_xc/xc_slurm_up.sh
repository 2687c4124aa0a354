#!/bin/bash
# xc_slurm_up.sh NODE[,NODE2] : bring up a private Slurm 22.05 cluster for one capture job inside the job's
# namespaces: munged (socket under slurm/munge/), slurmctld on 127.0.0.1:6817 and one slurmd per node. A single node
# runs in the job's own UTS namespace (host vm); with two node names each slurmd runs in its own UTS + mount namespace
# (hostname = node name, holder pid in slurm/<node>.pid; slurm/<node>.setup, if present, is sourced there first), each
# on its own port (6818, 6819). Config: slurm/etc/slurm.conf (written here); logs: slurm/log/; sockets and spool on a
# tmpfs at /run/xc (private to the job's mount namespace).
set -e
J=$PWD; S=$J/slurm; NODES=${1:-vm}
ip addr add 127.0.1.1/32 dev lo 2>/dev/null  # a non-127.0.0.1 IPv4 address, so that getaddrinfo(AI_ADDRCONFIG) in srun / slurmstepd finds IPv4
mkdir -p $S/etc $S/state $S/log /run/xc
mount -t tmpfs -o mode=0755 xcrun /run/xc   # short paths for the unix sockets (108-byte limit)
R=/run/xc; mkdir -p $R/spool $R/munge; chown munge:munge $R/munge
cat > $S/etc/slurm.conf <<C
ClusterName=xc
SlurmctldHost=vm(127.0.0.1)
SlurmUser=root
SlurmctldPort=6817
AuthType=auth/munge
AuthInfo=socket=$R/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$R/spool/%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$S/log/jobcomp.txt
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=5
InactiveLimit=0
MinJobAge=600
SlurmdTimeout=30
C
port=6818; nl=""
for n in ${NODES//,/ }; do
  echo "NodeName=$n NodeAddr=127.0.0.1 Port=$port CPUs=4 RealMemory=16000 State=UNKNOWN" >> $S/etc/slurm.conf
  port=$((port + 1)); nl="$nl,$n"
done
echo "PartitionName=cpu Nodes=${nl#,} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4" >> $S/etc/slurm.conf
export SLURM_CONF=$S/etc/slurm.conf
runuser -u munge -- munged --socket=$R/munge/munge.sock --pid-file=$R/munge/munged.pid --log-file=$R/munge/munged.log \
  --seed-file=$R/munge/munged.seed
slurmctld -f $SLURM_CONF -i
if [ "$NODES" = vm ]; then
  slurmd -f $SLURM_CONF
else
  for n in ${NODES//,/ }; do
    mkdir -p $R/spool/$n
    unshare -u -m --propagation private bash -c "hostname $n; [ -f $S/$n.setup ] && . $S/$n.setup; slurmd -f $SLURM_CONF; exec sleep infinity" &
    echo $! > $S/$n.pid
  done
fi
for i in $(seq 60); do
  st=$(sinfo -h -o '%T' 2>/dev/null | sort -u | tr '\n' ' ')
  [ "$st" = "idle " ] && break; sleep 1
done
sinfo
