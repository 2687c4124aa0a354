#!/bin/bash
# Site launcher rc_spawn_launch.py: os.posix_spawnp per slot from slots.conf, file_actions send each slot's
# stdout+stderr to spawn/<slot>.out; launcher lines in launch.out. Healthy run: 2 epochs, rank 0 prints a run summary.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > slots.conf <<'X'
# slot  env
s0 RANK=0 LOCAL_RANK=0 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
s1 RANK=1 LOCAL_RANK=1 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
s2 RANK=2 LOCAL_RANK=2 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
X
timeout -s TERM 150 nice $PY rc_spawn_launch.py slots.conf $PY rc_train.py --rows 800 --epochs 2 --summary > launch.out 2>&1
rc launcher $?
