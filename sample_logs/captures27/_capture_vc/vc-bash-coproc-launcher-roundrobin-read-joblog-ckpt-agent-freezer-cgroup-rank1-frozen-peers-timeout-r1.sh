#!/bin/bash
# bash coproc launcher (vc_coproc_launch.sh: one coproc per env:// rank, round-robin `read -t` over the coproc pipes
# into job.log, `HH:MM:SS r<R>| ` tags). Next to it the node's checkpoint/preemption agent (vc_ckpt_agent.sh,
# agent.log): when rank 1 logs step 30 it moves rank 1 into a cgroup-v1 freezer cgroup and freezes it for a dump
# that never completes (thawed after 60 s). Process-group timeout 20 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
./vc_ckpt_agent.sh agent.log job.log 'r1| .* step 30 ' '.* r1| .*start pid=\([0-9]*\) .*' & AP=$!
timeout -s TERM 150 nice ./vc_coproc_launch.sh 3 29907 -- $PY vc_train.py --epochs 6 --sleep 0.1 --pg-timeout 20 \
  --fmt '%(levelname).1s %(asctime)s.%(msecs)03d %(name)s] %(message)s' > job.log 2> launcher.stderr
rc launcher $?
wait $AP; rmdir /sys/fs/cgroup/freezer/ckpt-* 2>/dev/null
