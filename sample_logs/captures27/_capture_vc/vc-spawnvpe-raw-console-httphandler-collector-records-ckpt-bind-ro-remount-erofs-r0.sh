#!/bin/bash
# os.spawnvpe launcher (vc_spawn_launch.py): the ranks share one raw console (console.txt, unprefixed), their logging
# records go through logging.handlers.HTTPHandler to an http.server collector (records.log; the server's own access
# log on its stderr, access.log). 3 ranks; rank 0 checkpoints into ckpt/ every 20 steps. ckpt/ is the shared
# checkpoint area, which the storage side has bind-remounted read-only (mount -o remount,bind,ro) for a snapshot.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir ckpt; mount --bind ckpt ckpt; mount -o remount,bind,ro ckpt
$PY vc_http_collector.py 8519 records.log 2> access.log & CPID=$!
sleep 1
timeout -s TERM 150 nice $PY vc_spawn_launch.py 3 29903 10 -- $PY vc_train.py --http-log 127.0.0.1:8519 \
  --epochs 2 --ckpt-every 20 --ckpt-dir ckpt --pg-timeout 30 > console.txt 2>&1
rc launcher $?
sleep 1; kill $CPID
