#!/bin/bash
# kubelet-like pod runner (vc_podrun.py) for a PyTorchJob-shaped job: pods pytorchjob-master-0 / worker-0 / worker-1
# (ranks 0 / 1 / 2), each in its own UTS namespace and cgroup-v1 memory cgroup; container logs in CRI format under
# pods/ml-train_<pod>_<uid>/pytorch/0.log, lifecycle events in events.log, final table pods.txt. Pod names resolve
# through /etc/hosts (bind-mounted in the job's mount namespace). worker-1's memory limit is 300Mi (meant 3000Mi);
# the trainer materialises its synthetic shard (--rows 2500000) in memory.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1 localhost\n127.0.0.1 pytorchjob-master-0 pytorchjob-worker-0 pytorchjob-worker-1\n' > hosts
mount --bind hosts /etc/hosts
$PY vc_make_podspec.py pytorchjob.json $PY 23456 300Mi 0 --rows 2500000 --epochs 1 --bs 4096 --pg-timeout 30 \
  --log-every 50 --fmt '%(asctime)s [%(levelname)s] %(name)s: %(message)s'
timeout -s TERM 150 nice $PY vc_podrun.py pytorchjob.json
rc podrunner $?
for d in /sys/fs/cgroup/memory/kubepods/pod*; do rmdir $d; done
