#!/bin/bash
# Open MPI 4.1 mpirun across two "nodes" (nodea, nodeb: UTS + mount namespaces sharing the job's loopback-only
# network namespace), started on nodea, with `--mca plm_rsh_agent yc_nsrsh.sh` (an ssh stand-in that nsenters the
# node) so that nodeb gets a real orted; `--map-by node --display-map`, the ranks (non-MPI gloo trainer, env:// from
# OMPI_COMM_WORLD_*) logging through FileHandler into the node-local /var/log/train/rank<R>.log (a tmpfs per node),
# the mpirun console in mpirun.console. The dataset volume is bind-mounted at /data on nodea; on nodeb the mount is
# missing (the mount point is an empty directory), so both ranks placed on nodeb (1 and 3) cannot open their shards.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p nodes shared/data nodea-log nodeb-log
$PY yc_make_csv.py shared/data/shards 4 1200
printf '127.0.0.1 localhost\n127.0.1.1 nodea\n127.0.1.2 nodeb\n' > nodes/hosts
for n in nodea nodeb; do
  unshare -u -m --propagation private sh -c "hostname $n; mount --bind $J/nodes/hosts /etc/hosts; \
    mkdir -p /data; mount -t tmpfs -o size=64m tmpfs /var/log; mkdir -p /var/log/train; \
    $( [ $n = nodea ] && echo "mount --bind $J/shared/data /data;" ) exec sleep 100000" &
  echo $! > nodes/$n.pid
done
sleep 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout -s TERM 240 nice nsenter -t $(cat nodes/nodea.pid) -u -m -- mpirun -np 4 --host nodea:2,nodeb:2 --map-by node \
  --display-map --mca plm_rsh_agent $J/yc_nsrsh.sh --mca btl self,tcp -x PATH -x PYTHONUNBUFFERED -x OMP_NUM_THREADS \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29947 --wdir $J \
  ./yc_ompi_rank.sh $PY yc_train.py --data '/data/shards/part-{rank}.csv' --epochs 2 --pg-timeout 60 --no-stdout \
  --logfile '/var/log/train/rank{rank}.log' --fmt '%(asctime)s {rank}/{world} %(process)d %(levelname)s %(name)s %(message)s' \
  > mpirun.console 2>&1
rc mpirun $?
for n in nodea nodeb; do nsenter -t $(cat nodes/$n.pid) -u -m -- sh -c "cp -a /var/log/train/. $J/$n-log/"; done
kill $(cat nodes/nodea.pid) $(cat nodes/nodeb.pid); wait
