#!/bin/bash
# TORCHELASTIC_ENABLE_FILE_TIMER=1 torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir elastic_logs: the
# agent runs torchelastic's FileTimerServer (a FIFO) and each worker wraps every training step in
# torch.distributed.elastic.timer.expires(after=120) (a per-step hang watchdog). Worker stdout/stderr go to files under
# elastic_logs/, the agent's own output to console.log; the trainer also logs through Python logging with a per-rank
# FileHandler in logs/. 1500 steps planned. About 14 s in (mid-run) the torchrun process is sent SIGKILL from outside
# (`kill -9 <torchrun pid>`, as a node-cleanup script or the host OOM killer picking the launcher would): the agent
# dies with no output, the three workers are orphaned; at their next step the timer client cannot open the
# watchdog FIFO any more (no reader) and every rank raises BrokenPipeError.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bd_prep.py --out data --shards 3 --rows 6400 > prep.log
TORCHELASTIC_ENABLE_FILE_TIMER=1 torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir elastic_logs \
  bd_train.py --data data --steps 1500 --step-timer 120 --log-every 50 --pg-timeout 60 --step-sleep 0.01 \
  > console.log 2>&1 & T=$!
sleep 14; kill -9 $T; wait $T; rc torchrun $?
sleep 40; ps -eo pid,ppid,stat,etime,args | grep '[b]d_train.py' > orphans_after_40s.txt
