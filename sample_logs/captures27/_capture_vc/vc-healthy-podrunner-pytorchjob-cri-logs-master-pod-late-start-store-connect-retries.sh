#!/bin/bash
# kubelet-like pod runner (vc_podrun.py), PyTorchJob-shaped (master-0, worker-0, worker-1 = ranks 0..2), CRI-format
# container logs under pods/ml-train_<pod>_<uid>/pytorch/0.log, events.log, pods.txt. The master pod starts 6 s after
# the workers (its image pull / init, startDelaySeconds), so the workers' store clients retry against a port nobody
# listens on yet. All limits 3Gi; a deprecation warning from the trainer; final eval. Healthy run.
. "$(dirname "$(readlink -f "$0")")/common.sh"
printf '127.0.0.1 localhost\n127.0.0.1 pytorchjob-master-0 pytorchjob-worker-0 pytorchjob-worker-1\n' > hosts
mount --bind hosts /etc/hosts
$PY vc_make_podspec.py pytorchjob.json $PY 23456 3Gi 6 --rows 1600 --epochs 2 --pg-timeout 60 --warn \
  --final-eval --fmt '%(asctime)s [%(levelname)s] %(name)s: %(message)s'
timeout -s TERM 150 nice $PY vc_podrun.py pytorchjob.json
rc podrunner $?
for d in /sys/fs/cgroup/memory/kubepods/pod*; do rmdir $d; done
