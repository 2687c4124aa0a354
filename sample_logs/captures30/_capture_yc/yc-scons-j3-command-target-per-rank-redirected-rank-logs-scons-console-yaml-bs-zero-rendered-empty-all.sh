#!/bin/bash
# SCons 4.4 as the launcher: an SConstruct with one Command target per rank (`out/rank<R>.done`, its action runs the
# rank with stdout+stderr redirected to logs/rank<R>.log and touches the target), built with `scons -j3 -k`
# (scons.console). The shared run config train.yaml is rendered from a template by a prepare step; the per-rank batch
# size variable was empty and the template's default rendered `bs: 0`, which every rank passes to its DataLoader.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs out
cat > train.yaml <<'Y'
# rendered by prepare.py from train.yaml.j2 (per_rank_bs = global_bs // world_size)
epochs: 2
lr: 0.05
bs: 0
log_every: 10
Y
cat > SConstruct <<S
import os
env = Environment(ENV={"PATH": os.environ["PATH"], "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29944",
                       "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"})
for r in range(3):
    env.Command(f"out/rank{r}.done", ["train.yaml", "yc_train.py"],
                f"$PY yc_train.py --rank {r} --world 3 --config train.yaml --pg-timeout 60 "
                f"--fmt '[%(asctime)s] %(levelname)s rank{r}: %(message)s' > logs/rank{r}.log 2>&1 && touch \$TARGET")
S
timeout -s TERM 200 nice scons -j3 -k > scons.console 2>&1
rc scons $?
