#!/bin/bash
# concurrently (npm, 9.x) as the launcher: one command per env:// rank, prefix `[HH:mm:ss.SSS r<R>]`,
# --kill-others-on-fail; every rank under the site memory cap wc_memcg_exec.sh (cgroup v1, 1536M). The data export
# wrote rank 1's manifest with the shard's byte count in the `rows` field (40,000,000 instead of 1,600); the trainer
# preallocates its feature cache from the manifest (40M x 16 float64 = 4.77 GiB) and the kernel OOM-kills it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data
for r in 0 1 2; do echo "{\"shard\": \"part-0000$r.parquet\", \"rows\": 1600, \"bytes\": 40000000}" > data/manifest-$r.json; done
echo '{"shard": "part-00001.parquet", "rows": 40000000, "bytes": 40000000}' > data/manifest-1.json
cmd() { echo "RANK=$1 LOCAL_RANK=$1 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29913 ./wc_memcg_exec.sh 1536M rank$1 -- $PY wc_train.py --manifest data/manifest-{rank}.json --epochs 2 --pg-timeout 20 --fmt '%(asctime)s %(levelname)-7s %(name)s | %(message)s'"; }
timeout -s TERM 150 nice concurrently --kill-others-on-fail -n r0,r1,r2 -p '[{time} {name}]' -t 'HH:mm:ss.SSS' \
  "$(cmd 0)" "$(cmd 1)" "$(cmd 2)" > console.log 2>&1
rc concurrently $?
rmdir /sys/fs/cgroup/memory/wcjob/rank* /sys/fs/cgroup/memory/wcjob 2>/dev/null
