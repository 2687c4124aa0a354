#!/bin/bash
# torch.multiprocessing.spawn, 3 ranks, DataLoader(num_workers=2) over per-rank CSV shards parsed lazily in the
# workers; one combined console (logging module lines with the rank in the format). Fault: rank 2's shard has the
# field "NA" (f11, row 301); the DataLoader worker that fetches it raises ValueError, re-raised in rank 2's training
# loop; spawn terminates the other ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aj_make_csv.py data 3 512 --bad 2:301:NA
$PY aj_spawn.py 3 -- --data 'data/shard-{rank}.csv' --workers 2 --epochs 3 --bs 32 --log-every 4 \
  --fmt '%(asctime)s %(process)d rank={rank} %(levelname)s %(message)s' > console.log 2>&1
rc spawn $?
