#!/bin/bash
# In-house launcher on joblib's loky process pool (tc_joblib_launch.py, joblib 1.6.0 from PYTHONPATH), one loky task
# per rank calling tc_train.main() (rank logs logs/rank<R>.log through a FileHandler; the launcher's console with
# joblib's verbose progress in launcher.out). A stall watchdog in the launcher runs `py-spy dump` on every rank when no
# rank log has grown for 20 s (stacks/rank<R>.txt). The trainer uses ZeroRedundancyOptimizer and checkpoints every
# 60 steps; the checkpoint code consolidates the sharded optimizer state only on rank 0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export PYTHONPATH=/home/user/tc_extra
timeout -s TERM 200 nice $PY tc_joblib_launch.py --nproc 3 --port 29786 --stall 20 -- --zero --ckpt-every 60 \
  --rows 1600 --epochs 3 --pg-timeout 60 --log-file 'logs/rank{rank}.log' \
  --fmt '%(asctime)s.%(msecs)03d %(levelname).1s %(process)d r{rank} %(name)s] %(message)s' > launcher.out 2>&1
rc launcher $?
