#!/bin/bash
# python bl_train.py --nprocs 3 --log-format bracketed --stage-from remote --stage-barrier-timeout 15:
# torch.multiprocessing.spawn, 3 ranks. Each rank first copies its shard from the shared "remote" export into local
# data/ and then waits in dist.monitored_barrier(timeout=15 s). Rank 2's source read stalls (its file on the export
# is served through a pipe whose writer only delivers after 60 s, as a hung network mount would): rank 0's
# monitored barrier reports rank 2 and raises.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bl_prep.py --out export --shards 3 --rows 1024 > prep.log
mkdir -p remote data; cp export/val.npz data/; cp export/shard_00.npz export/shard_01.npz remote/; mkfifo remote/shard_02.npz
( sleep 60; cat export/shard_02.npz > remote/shard_02.npz ) & S=$!
$PY bl_train.py --nprocs 3 --master-port 29741 --data data --stage-from remote --stage-barrier-timeout 15 \
  --log-format bracketed --steps 200 --log-every 25 --pg-timeout 60 > console.log 2>&1
rc spawn $?
kill $S 2>/dev/null; wait $S 2>/dev/null
