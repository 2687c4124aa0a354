#!/bin/bash
# A Lua launcher (xc_launch.lua on Lua 5.3 + luaposix: fork + pipe per env:// rank, poll loop, out/rank<R>.log per
# rank, launcher records in launch.log). The job table (job.lua) gives rank 2, whose shard lives on the shared
# volume, a prestart hook that waits for the volume's sync lock (`flock -w 600 data/.sync.lock true`). The nightly
# dataset sync still held the lock (it ran ~55 s into the job), so rank 2 started only after ranks 0/1 had given up
# waiting for it in the TCP store rendezvous (process-group timeout 30 s); rank 2 then finds no store.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p out data
./xc_sync_hold.sh data/.sync.lock 55 sync.log & SYNC=$!
sleep 1
cat > job.lua <<'L'
return { nproc = 3, port = 29933, grace = 10, log = "launch.log",
         ranks = { [2] = { prestart = "flock -w 600 data/.sync.lock true" } } }
L
timeout -s TERM 200 nice lua5.3 xc_launch.lua job.lua -- $PY xc_train.py --epochs 2 --pg-timeout 30 \
  --fmt '%(asctime)s.%(msecs)03d %(levelname)s [%(process)d] rank{rank} %(message)s' > launch.console 2>&1
rc launcher $?
wait $SYNC
