#!/bin/bash
# forever (the Node.js process monitor, 4.x) as the launcher: one `forever start --uid rank<R> -m 1 -c python
# yc_train.py ...` per rank (env:// variables from the environment of each start), forever's own per-process log
# (-l forever/rank<R>.forever.log) plus the rank's stdout / stderr files (-o / -e forever/rank<R>.out / .err),
# FOREVER_ROOT=/tmp/ycw-forever (a short path: forever keeps its unix sockets there); `forever list` snapshots while running and after the ranks' exits, then `forever stopall` (forever-list.txt). A healthy
# run: 3 epochs, final eval, done lines.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export FOREVER_ROOT=/tmp/ycw-forever; rm -rf $FOREVER_ROOT
mkdir -p forever
for r in 0 1 2; do
  RANK=$r WORLD_SIZE=3 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=29950 forever start --uid rank$r -m 1 \
    --minUptime 1000 --spinSleepTime 1000 -l $J/forever/rank$r.forever.log -o $J/forever/rank$r.out \
    -e $J/forever/rank$r.err -c "nice $PY" yc_train.py --epochs 3 --final-eval --warn --pg-timeout 60 \
    --fmt '%(asctime)s - %(name)s - %(levelname)s - [rank {rank}] %(message)s' >> forever-start.console 2>&1
done
sleep 15; { echo "\$ forever list   # $(date -Is)"; forever list --plain; } >> forever-list.txt 2>&1
for i in $(seq 1 60); do sleep 3; [ "$(cat forever/rank*.forever.log | grep -c 'detected script exited')" -ge 3 ] && break; done
{ echo "\$ forever list   # $(date -Is)"; forever list --plain; } >> forever-list.txt 2>&1
{ echo "\$ forever stopall   # $(date -Is)"; forever stopall --plain; } >> forever-list.txt 2>&1
rc forever 0
