#!/bin/bash
# Same posix_spawn slot launcher as rc-healthy-posix-spawn-slots-summary; slots.conf was hand-edited for a new
# slot layout and slot s2 still carries RANK=1 (RANK duplicated, no process has RANK=2). Process-group timeout 30 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > slots.conf <<'X'
# slot  env
s0 RANK=0 LOCAL_RANK=0 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
s1 RANK=1 LOCAL_RANK=1 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
s2 RANK=1 LOCAL_RANK=2 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29733
X
timeout -s TERM 150 nice $PY rc_spawn_launch.py slots.conf $PY rc_train.py --rows 800 --epochs 2 --pg-timeout 30 > launch.out 2>&1
rc launcher $?
