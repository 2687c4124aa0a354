#!/bin/bash
# task-spooler queue as the launcher: a private tsp server (TS_SOCKET=/tmp/tsp-tc.sock, TMPDIR=spool/tsp-output) with `tsp -S 3` slots; each env://
# rank is queued with `tsp -L rank<R>` (stdout and stderr together in spool/tsp-output/ts-out.XXXXXX; this build's -E is broken). After the
# queue drains the launcher saves `tsp -l` (tsp-list.txt) and `tsp -i <id>` for each job (tsp-info.txt).
# TMPDIR points tsp's output files into the job dir (spool/tsp-output/) and is inherited by the queued jobs. Data: float32 shards
# data/rank<R>/part-*.bin read by a DataLoader (2 workers, timeout 20 s; tensors go back to the rank through
# torch's file-descriptor sharing, which opens an AF_UNIX listener under TMPDIR).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY tc_make_shards.py data 3 4 > /dev/null
mkdir -p spool/tsp-output
export TMPDIR=$J/spool/tsp-output TS_SOCKET=/tmp/tsp-tc.sock TS_MAXFINISHED=10
tsp -S 3
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29764 tsp -L rank$r \
    timeout -s TERM 150 nice $PY tc_train.py --data-dir data --workers 2 --dl-timeout 20 --epochs 2 --pg-timeout 90 \
      --fmt '[%(asctime)s][%(name)s][%(levelname)s] - %(message)s' > /dev/null
done
for id in 0 1 2; do tsp -w $id > /dev/null 2>&1; done
tsp -l > tsp-list.txt
for id in 0 1 2; do tsp -i $id >> tsp-info.txt; echo >> tsp-info.txt; done
tsp -K
rc queue 0
