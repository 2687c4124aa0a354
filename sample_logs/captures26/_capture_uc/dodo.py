"""dodo.py: doit task file of the training job. `doit -n 3 train` runs the three rank tasks in parallel worker
processes; every rank is an env:// process (rank = task index)."""
import os
import sys

from doit.action import CmdAction

DOIT_CONFIG = {"verbosity": 2, "default_tasks": ["train"]}
WORLD = 3
PORT = 29866
PY = sys.executable


def task_train():
    """one sub-task per rank"""
    for r in range(WORLD):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(WORLD), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(PORT))
        cmd = (f"{PY} uc_train.py --shard-cache cache --featstore http://127.0.0.1:8765 --ready-timeout 30 "
               f"--epochs 2 --pg-timeout 120 --fmt '%%(asctime)s [r{{rank}}] %%(levelname)s %%(name)s: %%(message)s'")
        yield {"name": f"rank{r}", "actions": [CmdAction(cmd, env=env)], "verbosity": 2,
               "uptodate": [False]}
