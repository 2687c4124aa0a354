#!/bin/bash
# ninja as the launcher: build.ninja has one edge per env:// rank (stamp files out/rank<R>.ok), `ninja -j 3` runs
# them at once and prints each edge's whole output only when it ends (`[N/3] train rank R`, `FAILED: ...` blocks),
# one console ninja.out (plus ninja's .ninja_log). Data: float32 shards data/rank<R>/part-*.bin read by a DataLoader
# (2 workers, timeout 20 s). One of rank 2's shard files sits on a stalled mount: its open() never returns
# (stand-in: the path is a FIFO with no writer, as a hard-mounted NFS file whose server stopped answering).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY tc_make_shards.py data 3 4 > /dev/null
rm data/rank2/part-0001.bin; mkfifo data/rank2/part-0001.bin
cat > build.ninja <<NINJA
py = $PY
args = --data-dir data --workers 2 --dl-timeout 20 --epochs 2 --pg-timeout 90 --fmt '%(asctime)s rank{rank} %(levelname)s %(message)s'
rule train
  command = env RANK=\$rank LOCAL_RANK=\$rank WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29831 OMP_NUM_THREADS=1 nice \$py tc_train.py \$args && touch \$out
  description = train rank \$rank
build out/rank0.ok: train
  rank = 0
build out/rank1.ok: train
  rank = 1
build out/rank2.ok: train
  rank = 2
NINJA
mkdir -p out
timeout -s TERM 200 ninja -j 3 > ninja.out 2>&1
rc ninja $?
